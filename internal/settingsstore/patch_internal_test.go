package settingsstore

import (
	"encoding/json"
	"errors"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/indexsettings"
)

func TestSettingsStore(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Settings store")
}

var _ = Describe("A full-object merge patch", func() {
	It("sends every key of the object, absent ones as null, so the object is replaced", func() {
		patch, err := fullObjectPatch(searchv1alpha1.PublicSearchPolicy{MaxHits: 7}, policyKeys, "spec", "publicAccess", "policy")
		Expect(err).NotTo(HaveOccurred())
		Expect(patch).To(MatchJSON(`{"spec": {"publicAccess": {"policy": {"maxHits": 7, "retrievableFields": null,
			"forcedFilters": null, "allowedFacets": null, "allowedFilters": null, "allowedSorts": null}}}}`))
	})

	It("replaces a nested object the settings hold entirely too, and leaves an absent one null", func() {
		patch, err := fullObjectPatch(searchv1alpha1.IndexSettings{TypoTolerance: &searchv1alpha1.TypoTolerance{OnNumbers: true}},
			settingsKeys, "spec", "settings")
		Expect(err).NotTo(HaveOccurred())
		Expect(patch).To(MatchJSON(`{"spec": {"settings": {"searchableFields": null, "filterableFields": null, "facetFields": null,
			"sortableFields": null, "ranking": null, "customRanking": null, "synonyms": null, "stopWords": null, "language": null,
			"countBrowserOrders": null, "recommendations": null, "distinct": null, "eventRanking": null, "reRanking": null, "suggestions": null, "facetOrdering": null, "embedders": null, "typoTolerance": {"onNumbers": true, "enabled": null, "minWordSizeFor1Typo": null,
			"minWordSizeFor2Typos": null, "disableOnFields": null, "disableOnWords": null}}}}`))
	})
})

var _ = Describe("A full-object merge patch of settings", func() {
	It("replaces the objects inside too, so a key left out returns to its default", func() {
		within := searchv1alpha1.RecommendationSettings{SimilarWithin: "brand", EventWeights: &searchv1alpha1.EventWeights{}}
		patch, err := fullObjectPatch(searchv1alpha1.IndexSettings{Recommendations: &within}, settingsKeys, "spec", "settings")
		Expect(err).NotTo(HaveOccurred())
		Expect(patch).To(MatchJSON(`{"spec": {"settings": {"searchableFields": null, "filterableFields": null,
			"facetFields": null, "sortableFields": null, "ranking": null, "customRanking": null, "synonyms": null,
			"typoTolerance": null, "stopWords": null, "language": null, "countBrowserOrders": null, "distinct": null, "eventRanking": null, "reRanking": null, "suggestions": null, "facetOrdering": null, "embedders": null, "recommendations": {"similarWithin": "brand", "minSharedOrders": null,
			"eventWeights": {"view": null, "click": null, "addToCart": null, "purchase": null}}}}}`))
	})
})

var _ = Describe("A settings patch", func() {
	It("drops the facets and keys of facetOrdering.values the new settings leave out", func() {
		before := searchv1alpha1.IndexSettings{FacetOrdering: &searchv1alpha1.FacetOrdering{Values: map[string]searchv1alpha1.FacetValuesOrder{
			"brand": {Order: []string{"Acme"}, Hide: []string{"Junk"}}, "color": {SortRemainingBy: "alpha"}}}}
		next := searchv1alpha1.IndexSettings{FacetOrdering: &searchv1alpha1.FacetOrdering{Values: map[string]searchv1alpha1.FacetValuesOrder{
			"brand": {Order: []string{"Acme"}}}}}
		patch, err := settingsPatch(before, next)
		Expect(err).NotTo(HaveOccurred())
		var got struct {
			Spec struct {
				Settings struct {
					FacetOrdering map[string]any `json:"facetOrdering"`
				} `json:"settings"`
			} `json:"spec"`
		}
		Expect(json.Unmarshal(patch, &got)).To(Succeed())
		Expect(got.Spec.Settings.FacetOrdering).To(Equal(map[string]any{"facets": nil, "values": map[string]any{
			"brand": map[string]any{"order": []any{"Acme"}, "sortRemainingBy": nil, "hide": nil}, "color": nil}}))
	})
})

var _ = Describe("A refused write", func() {
	gk := schema.GroupKind{Group: "search.aisle.dev", Kind: "SearchIndex"}
	// As the Kubernetes API words a CRD schema's refusal: the cause repeats its field.
	invalid := apierrors.NewInvalid(gk, "lab", nil)
	invalid.ErrStatus.Details.Causes = []metav1.StatusCause{{
		Field:   "spec.settings.searchableFields[0].weight",
		Message: "spec.settings.searchableFields[0].weight in body should be less than or equal to 100",
	}}

	It("names the local problems and the Kubernetes API's in the API's field names, after the sentinel", func() {
		local := []indexsettings.FieldError{{Field: "sortableFields[1]", Message: `"price" is listed twice`}}
		err := refusal(ErrInvalidSettings, local, invalid)
		Expect(errors.Is(err, ErrInvalidSettings)).To(BeTrue())
		Expect(err).To(MatchError(`invalid settings: sortableFields[1]: "price" is listed twice; ` +
			`searchableFields[0].weight: should be less than or equal to 100`))
	})

	It("is no refusal when the write was stored", func() {
		Expect(refusal(ErrInvalidPolicy, nil, nil)).To(Succeed())
	})

	It("says a missing index with ErrIndexNotFound", func() {
		err := refusal(ErrInvalidPolicy, nil, apierrors.NewNotFound(schema.GroupResource{Resource: "searchindexes"}, "lab"))
		Expect(err).To(MatchError(ErrIndexNotFound))
	})

	It("passes another failure on as it is", func() {
		internal := apierrors.NewInternalError(errors.New("etcd"))
		Expect(refusal(ErrInvalidPolicy, nil, internal)).To(BeIdenticalTo(internal))
	})
})

var _ = Describe("The settings keys a full-object patch replaces", func() {
	It("are every field of the settings and of the objects they point to, dotted", func() {
		Expect(settingsKeys).To(ContainElements("searchableFields", "typoTolerance", "typoTolerance.enabled",
			"recommendations.eventWeights", "recommendations.eventWeights.view", "suggestions", "suggestions.exclude"))
		Expect(settingsKeys).NotTo(ContainElement(HavePrefix("searchableFields.")), "a slice is replaced whole")
	})
})

var _ = Describe("A settings patch of embedders", func() {
	It("drops the embedders and keys the new settings leave out", func() {
		use := searchv1alpha1.Embedder{Source: "userProvided", Dimensions: 512, Similarity: "cosine"}
		before := searchv1alpha1.IndexSettings{Embedders: map[string]searchv1alpha1.Embedder{"use": use, "old": use}}
		next := searchv1alpha1.IndexSettings{Embedders: map[string]searchv1alpha1.Embedder{"use": {Source: "userProvided", Dimensions: 3}}}
		patch, err := settingsPatch(before, next)
		Expect(err).NotTo(HaveOccurred())
		var got struct {
			Spec struct {
				Settings struct {
					Embedders map[string]any `json:"embedders"`
				} `json:"settings"`
			} `json:"spec"`
		}
		Expect(json.Unmarshal(patch, &got)).To(Succeed())
		Expect(got.Spec.Settings.Embedders).To(Equal(map[string]any{"old": nil,
			"use": map[string]any{"source": "userProvided", "dimensions": 3.0, "similarity": nil, "url": nil, "model": nil,
				"apiKeySecret": nil, "documentTemplate": nil, "documentTemplateMaxBytes": nil, "sendDimensions": nil}}))
	})
})
