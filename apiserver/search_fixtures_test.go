package apiserver_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/apiserver"
	"github.com/aislehq/aisle/controllers"
	"github.com/aislehq/aisle/internal/esnames"
)

// catalogSettings are those of the acme/catalog index the search specs run on.
var catalogSettings = searchv1alpha1.IndexSettings{
	SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 3}, {Path: "description", Weight: 1}},
	FilterableFields: []searchv1alpha1.FieldPath{"brand", "price", "inStock", "createdAt", "specs.color"},
	FacetFields:      []searchv1alpha1.FieldPath{"brand", "specs.color", "inStock"},
	SortableFields:   []searchv1alpha1.FieldPath{"price", "createdAt"},
	CustomRanking:    []searchv1alpha1.RankingRule{{Field: "popularity", Order: searchv1alpha1.SortDescending}},
	Synonyms:         []searchv1alpha1.SynonymGroup{{Terms: []string{"sneaker", "shoe"}}},
}

// catalogRecords carry the catalog's reserved version field, as the write path stores
// them: searches must never show it.
var catalogRecords = []string{
	`{"objectID": "p1", "name": "Red running shoe", "description": "Light shoe for road running", "brand": "Acme", "price": 59.5, "inStock": true, "popularity": 10, "specs": {"color": "red"}, "createdAt": "2024-01-05T10:00:00Z", "aisleVersion": 3}`,
	`{"objectID": "p2", "name": "Blue running shoe", "description": "Cushioned", "brand": "Acme", "price": 79, "inStock": false, "popularity": 50, "specs": {"color": "blue"}, "createdAt": "2024-02-01T00:00:00Z", "aisleVersion": 4}`,
	`{"objectID": "p3", "name": "Television 55 inch", "description": "Smart TV with HDR", "brand": "Globo", "price": 499, "inStock": true, "popularity": 30, "specs": {"color": "black"}, "createdAt": "2024-03-01T00:00:00Z", "aisleVersion": 5}`,
	`{"objectID": "p4", "name": "Trail shoe", "description": "Grip for mud", "brand": "Peak", "price": 120, "inStock": true, "popularity": 5, "specs": {"color": "green"}, "aisleVersion": 6}`,
	`{"objectID": "p5", "name": "Crème brûlée torch", "description": "For the kitchen", "brand": "Chef", "price": 25, "inStock": true, "popularity": 20, "specs": {"color": "silver"}, "aisleVersion": 7}`,
	`{"objectID": "p6", "name": "Red wool socks", "description": "Warm <b>and</b> soft", "brand": "Acme", "price": 9, "inStock": true, "popularity": 40, "specs": {"color": "red"}, "aisleVersion": 8}`,
}

const allowedOrigin = "http://allowed.test"

var catalogPolicy = &searchv1alpha1.PublicSearchPolicy{
	MaxHits:           3,
	RetrievableFields: []searchv1alpha1.FieldPath{"name", "price", "brand"},
	ForcedFilters:     []searchv1alpha1.FilterCondition{{Field: "inStock", Values: []string{"true"}}},
	AllowedFacets:     []searchv1alpha1.FieldPath{"brand"},
	AllowedFilters:    []searchv1alpha1.FieldPath{"price"},
	AllowedSorts:      []searchv1alpha1.FieldPath{"price"},
}

// createSearchFixtures adds, in acme, the catalog index (with records, allowed origins
// and a public policy) and the lab index (whose settings the specs change), a key for
// both; and the umbrella workspace whose plan allows 3 searches a month.
func createSearchFixtures() {
	createIndexWith("acme", "catalog", catalogSettings, []searchv1alpha1.Origin{allowedOrigin}, catalogPolicy)
	createIndexWith("acme", "lab", catalogSettings, []searchv1alpha1.Origin{allowedOrigin}, nil)
	issueFor("catalog", "acme", []searchv1alpha1.Scope{"search", "write"}, []string{"catalog", "lab"}, nil, nil)
	loadRecords("acme", "catalog", catalogSettings, catalogRecords)
	loadRecords("acme", "products", searchv1alpha1.IndexSettings{}, nil)

	Expect(k8sClient.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "umbrella"}})).To(Succeed())
	Expect(k8sClient.Create(ctx, &searchv1alpha1.Workspace{ObjectMeta: metav1.ObjectMeta{Name: "umbrella"},
		Spec: searchv1alpha1.WorkspaceSpec{Plan: searchv1alpha1.PlanLimits{MonthlySearches: 3}}})).To(Succeed())
	createIndexWith("umbrella", "products", searchv1alpha1.IndexSettings{}, nil, nil)
	issue("umbrella", "umbrella", []searchv1alpha1.Scope{"search"}, nil, nil)
	Eventually(func() int {
		return post("/api/teams/acme/indexes/catalog/search", keys["catalog"], `{"q": "", "limit": 1}`).Code
	}).Should(Equal(http.StatusOK))
}

func createIndexWith(ws, name string, settings searchv1alpha1.IndexSettings, origins []searchv1alpha1.Origin, policy *searchv1alpha1.PublicSearchPolicy) {
	idx := &searchv1alpha1.SearchIndex{
		ObjectMeta: metav1.ObjectMeta{Namespace: ws, Name: name,
			Annotations: map[string]string{controllers.PublicIDAnnotation: "pub-" + ws + "-" + name}},
		Spec: searchv1alpha1.SearchIndexSpec{AllowedOrigins: origins, Settings: settings},
	}
	if policy != nil {
		idx.Spec.PublicAccess = &searchv1alpha1.PublicAccess{Policy: policy}
	}
	Expect(k8sClient.Create(ctx, idx)).To(Succeed())
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(idx), idx)).To(Succeed())
		g.Expect(idx.Status.PublicID).To(Equal("pub-" + ws + "-" + name))
		g.Expect(idx.Status.PhysicalIndex).NotTo(BeEmpty())
	}).Should(Succeed())
}

// loadRecords creates the index's alias and physical index as the operator does, and
// writes the documents.
func loadRecords(ws, name string, settings searchv1alpha1.IndexSettings, docs []string) {
	names := esnames.For(ws, name)
	_, err := (&controllers.Backend{ES: esClient}).EnsureIndex(ctx, names, settings)
	Expect(err).NotTo(HaveOccurred())
	if len(docs) == 0 {
		return
	}
	var body bytes.Buffer
	for _, d := range docs {
		var rec struct {
			ObjectID string `json:"objectID"`
		}
		Expect(json.Unmarshal([]byte(d), &rec)).To(Succeed())
		body.WriteString(`{"index":{"_id":"` + rec.ObjectID + `"}}` + "\n" + d + "\n")
	}
	res, err := esClient.Bulk().Index(names.Alias()).Raw(&body).Refresh(refresh.True).Do(ctx)
	Expect(err).NotTo(HaveOccurred())
	Expect(res.Errors).To(BeFalse())
}

// post sends a JSON body with an optional bearer key through the app.
func post(path, key, body string) *httptest.ResponseRecorder {
	return send(server, http.MethodPost, path, key, body, nil)
}

func send(s *apiserver.Server, method, path, key, body string, headers map[string]string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	setHeaders(req, body != "", key, headers)
	return doOn(s, req)
}

// setHeaders sets a JSON body's Content-Type, a bearer key and more headers on req.
func setHeaders(req *http.Request, hasBody bool, key string, headers map[string]string) {
	if hasBody {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
}
