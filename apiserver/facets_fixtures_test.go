package apiserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// The faceted navigation specs (issue 22) run on an apparel catalog of the shop
// workspace: three tees and two hoodies (two groups), a cap, and two pairs of socks
// without a group; a policy allowing the brand facet to browsers, for garments under 50.

const apparelOrigin = "https://apparel.test"

var apparelSettings = searchv1alpha1.IndexSettings{
	SearchableFields: []searchv1alpha1.SearchableField{{Path: "name"}},
	FilterableFields: []searchv1alpha1.FieldPath{"brand", "color", "price", "groupId"},
	FacetFields:      []searchv1alpha1.FieldPath{"brand", "color", "price"},
	CustomRanking:    []searchv1alpha1.RankingRule{{Field: "popularity", Order: searchv1alpha1.SortDescending}},
	Distinct:         &searchv1alpha1.DistinctSetting{Field: "groupId", Limit: 1},
}

var apparelPolicy = &searchv1alpha1.PublicSearchPolicy{
	AllowedFacets: []searchv1alpha1.FieldPath{"brand"},
	ForcedFilters: []searchv1alpha1.FilterCondition{{Field: "price", Range: &searchv1alpha1.RangeBounds{LT: ptrTo("50")}}},
}

// By popularity: hood-grey, sock-1, tee-red, tee-blue, tee-green, hood-red, cap-red, sock-2.
var apparelRecords = []string{
	`{"objectID": "tee-red", "name": "Cotton tee red", "groupId": "tee", "brand": "acme", "color": "red", "price": 20, "popularity": 80}`,
	`{"objectID": "tee-blue", "name": "Cotton tee blue", "groupId": "tee", "brand": "acme", "color": "blue", "price": 22, "popularity": 70}`,
	`{"objectID": "tee-green", "name": "Cotton tee green", "groupId": "tee", "brand": "acme", "color": "green", "price": 24, "popularity": 60}`,
	`{"objectID": "hood-grey", "name": "Warm hoodie grey", "groupId": "hood", "brand": "globex", "color": "grey", "price": 60, "popularity": 90}`,
	`{"objectID": "hood-red", "name": "Warm hoodie red", "groupId": "hood", "brand": "globex", "color": "red", "price": 65, "popularity": 50}`,
	`{"objectID": "cap-red", "name": "Baseball cap", "groupId": "cap", "brand": "initech", "color": "red", "price": 15, "popularity": 40}`,
	`{"objectID": "sock-1", "name": "Wool socks", "brand": "acme", "color": "blue", "price": 9, "popularity": 85}`,
	`{"objectID": "sock-2", "name": "Silk socks", "brand": "globex", "color": "black", "price": 30, "popularity": 10}`,
}

// apparel is the catalog: its index, its public ID, and another index of the workspace
// (staff) which its search key does not grant.
type apparel struct {
	ci              catalogIndex
	publicID, staff string
}

var (
	apparelOnce sync.Once
	apparelIdx  apparel
)

// apparelIndex creates the catalog once for the specs that read it.
func apparelIndex() apparel {
	apparelOnce.Do(func() {
		name := fmt.Sprintf("apparel-%d", GinkgoParallelProcess())
		createIndexWith("shop", name+"-staff", apparelSettings, nil, nil)
		ci := rankedIndexWith(name, apparelSettings, []searchv1alpha1.Origin{apparelOrigin}, apparelPolicy, apparelRecords...)
		apparelIdx = apparel{ci: ci, publicID: "pub-shop-" + name, staff: name + "-staff"}
	})
	return apparelIdx
}

// facetedResult is the part of a search answer the faceted navigation specs read.
type facetedResult struct {
	Hits []struct {
		ObjectID string `json:"objectID"`
		Variants []struct {
			ObjectID string         `json:"objectID"`
			Record   map[string]any `json:"record"`
		} `json:"variants"`
	} `json:"hits"`
	Total      int64                         `json:"total"`
	Facets     map[string][]map[string]any   `json:"facets"`
	FacetStats map[string]map[string]float64 `json:"facetStats"`
}

func (r facetedResult) ids() []string {
	out := []string{}
	for _, h := range r.Hits {
		out = append(out, h.ObjectID)
	}
	return out
}

// variantsOf lists the objectIDs of a hit's variants.
func (r facetedResult) variantsOf(id string) []string {
	out := []string{}
	for _, h := range r.Hits {
		if h.ObjectID != id {
			continue
		}
		for _, v := range h.Variants {
			out = append(out, v.ObjectID)
		}
	}
	return out
}

// searchApparel sends a keyed search of the catalog; the answer is checked against the
// OpenAPI document.
func searchApparel(body string) facetedResult {
	a := apparelIndex()
	r := call(0, http.MethodPost, a.ci.base+"/search", a.ci.searchKey, []byte(body))
	Expect(r.status).To(Equal(http.StatusOK), string(r.body))
	var res facetedResult
	Expect(json.Unmarshal(r.body, &res)).To(Succeed())
	return res
}

// tallyWorkspace is a workspace whose plan allows searches searches a month, with an
// empty index and a search key for it.
func tallyWorkspace(prefix string, searches int64) (name, key string) {
	name = fmt.Sprintf("%s-%d", prefix, GinkgoParallelProcess())
	Expect(k8sClient.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}})).To(Succeed())
	Expect(k8sClient.Create(ctx, &searchv1alpha1.Workspace{ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: searchv1alpha1.WorkspaceSpec{Plan: searchv1alpha1.PlanLimits{MonthlySearches: searches}}})).To(Succeed())
	createIndexWith(name, "items", searchv1alpha1.IndexSettings{}, nil, nil)
	issueFor(name, name, []searchv1alpha1.Scope{"search"}, []string{"items"}, nil, nil)
	loadRecords(name, "items", searchv1alpha1.IndexSettings{}, nil)
	Eventually(func() int {
		return call(0, "GET", "/api/teams/"+name+"/indexes/items/fields", keys[name], nil).status
	}).Should(Equal(http.StatusOK))
	return name, keys[name]
}

func ptrTo[T any](v T) *T { return &v }
