package indexsettings_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/indexmapping"
	"github.com/aislehq/aisle/internal/indexsettings"
	"github.com/aislehq/aisle/internal/relevance"
	"github.com/aislehq/aisle/internal/searchquery"
)

func TestIndexSettings(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Index settings")
}

type S = searchv1alpha1.IndexSettings
type F = searchv1alpha1.FieldPath

func ptr[T any](v T) *T { return &v }

func sf(path string, w int32) searchv1alpha1.SearchableField {
	return searchv1alpha1.SearchableField{Path: F(path), Weight: w}
}

var base = S{
	SearchableFields: []searchv1alpha1.SearchableField{sf("name", 3), sf("description", 1)},
	FacetFields:      []F{"brand"},
	Language:         searchv1alpha1.LanguageEnglish,
}

func with(change func(*S)) S {
	s := base
	s.SearchableFields = append([]searchv1alpha1.SearchableField{}, base.SearchableFields...)
	change(&s)
	return s
}

var _ = Describe("Classifying a settings change", func() {
	DescribeTable("says which changes apply at once and which need a rebuild",
		func(next S, applied, rebuilt []string) {
			c := indexsettings.Diff(base, next)
			Expect(c.Applied).To(Equal(applied))
			Expect(c.Rebuilt).To(Equal(rebuilt))
		},
		Entry("nothing", base, []string{}, []string{}),
		Entry("a weight", with(func(s *S) { s.SearchableFields[0].Weight = 5 }), []string{"searchableFields"}, []string{}),
		Entry("the same searchable fields in another order", with(func(s *S) {
			s.SearchableFields = []searchv1alpha1.SearchableField{sf("description", 1), sf("name", 3)}
		}), []string{}, []string{}),
		Entry("a new searchable field", with(func(s *S) { s.SearchableFields = append(s.SearchableFields, sf("brand", 1)) }),
			[]string{}, []string{"searchableFields"}),
		Entry("filterable, facet and sortable fields", with(func(s *S) {
			s.FilterableFields, s.FacetFields, s.SortableFields = []F{"price"}, []F{"brand", "color"}, []F{"price"}
		}), []string{"filterableFields", "facetFields", "sortableFields"}, []string{}),
		Entry("custom ranking", with(func(s *S) { s.CustomRanking = []searchv1alpha1.RankingRule{{Field: "popularity"}} }),
			[]string{"customRanking"}, []string{}),
		Entry("synonyms (applied by the query)", with(func(s *S) { s.Synonyms = []searchv1alpha1.SynonymGroup{{Terms: []string{"tv", "television"}}} }),
			[]string{"synonyms"}, []string{}),
		Entry("a synonym's default type spelled out", S{SearchableFields: base.SearchableFields, FacetFields: base.FacetFields,
			Synonyms: []searchv1alpha1.SynonymGroup{{Type: "multiWay", Terms: []string{"a", "b"}}}},
			[]string{"synonyms"}, []string{}),
		Entry("the ranking", with(func(s *S) { s.Ranking = []searchv1alpha1.RankingCriterion{"custom", "words"} }), []string{"ranking"}, []string{}),
		Entry("the default ranking spelled out", with(func(s *S) { s.Ranking = relevance.DefaultRanking }), []string{}, []string{}),
		Entry("typo tolerance", with(func(s *S) { s.TypoTolerance = &searchv1alpha1.TypoTolerance{OnNumbers: true} }), []string{"typoTolerance"}, []string{}),
		Entry("typo tolerance's defaults spelled out", with(func(s *S) {
			s.TypoTolerance = &searchv1alpha1.TypoTolerance{Enabled: ptr(true), MinWordSizeFor1Typo: 4, MinWordSizeFor2Typos: 8}
		}), []string{}, []string{}),
		Entry("stop words", with(func(s *S) { s.StopWords = &searchv1alpha1.StopWords{Words: []string{"cheap"}} }), []string{"stopWords"}, []string{}),
		Entry("suggestions", with(func(s *S) { s.Suggestions = &searchv1alpha1.SuggestionsSetting{Exclude: []string{"sale"}} }), []string{"suggestions"}, []string{}),
		Entry("suggestions spelling out their defaults", with(func(s *S) { s.Suggestions = &searchv1alpha1.SuggestionsSetting{MinDays: ptr(int32(3))} }),
			[]string{}, []string{}),
		Entry("every query-time setting at once, and the language", with(func(s *S) {
			s.Ranking = []searchv1alpha1.RankingCriterion{"words"}
			s.CustomRanking = []searchv1alpha1.RankingRule{{Field: "popularity"}}
			s.Synonyms = []searchv1alpha1.SynonymGroup{{Type: "oneWay", Input: "phone", Synonyms: []string{"smartphone"}}}
			s.TypoTolerance = &searchv1alpha1.TypoTolerance{DisableOnWords: []string{"pro"}}
			s.StopWords = &searchv1alpha1.StopWords{Enabled: ptr(false)}
			s.Language = searchv1alpha1.LanguageGerman
		}), []string{"ranking", "customRanking", "synonyms", "typoTolerance", "stopWords"}, []string{"language"}),
		Entry("the language", with(func(s *S) { s.Language = searchv1alpha1.LanguageGeneric }), []string{}, []string{"language"}),
		Entry("the language left to its default", with(func(s *S) { s.Language = "" }), []string{}, []string{}),
		Entry("counting browser orders", with(func(s *S) { s.CountBrowserOrders = true }), []string{"countBrowserOrders"}, []string{}),
		Entry("recommendation settings", with(func(s *S) {
			s.Recommendations = &searchv1alpha1.RecommendationSettings{SimilarWithin: "brand"}
		}), []string{"recommendations"}, []string{}),
		Entry("recommendation settings spelling out the defaults", with(func(s *S) {
			two, one := int32(2), int32(1)
			s.Recommendations = &searchv1alpha1.RecommendationSettings{MinSharedOrders: &two,
				EventWeights: &searchv1alpha1.EventWeights{View: &one}}
		}), []string{}, []string{}),
		Entry("learning from events (signals live apart from the records)", with(func(s *S) {
			s.EventRanking = &searchv1alpha1.EventRanking{Enabled: true}
			s.ReRanking = &searchv1alpha1.ReRanking{Enabled: true}
		}), []string{"eventRanking", "reRanking"}, []string{}),
		Entry("learning settings spelling out their defaults, off", with(func(s *S) {
			s.EventRanking = &searchv1alpha1.EventRanking{HalfLifeDays: searchv1alpha1.DefaultHalfLifeDays}
			s.ReRanking = &searchv1alpha1.ReRanking{MinSearches: searchv1alpha1.DefaultMinSearches, Strength: searchv1alpha1.DefaultStrength}
		}), []string{}, []string{}),
		Entry("an embedder (a vector field of the index)", with(func(s *S) {
			s.Embedders = map[string]searchv1alpha1.Embedder{"use": {Source: "userProvided", Dimensions: 512}}
		}), []string{}, []string{"embedders"}),
	)
	It("rebuilds for an openAI embedder's model or template, not for its server's URL or token", func() {
		e := searchv1alpha1.Embedder{Source: "openAI", Dimensions: 3, Model: "m", DocumentTemplate: "{{title}}", URL: "http://a"}
		at := func(f func(*searchv1alpha1.Embedder)) S {
			x := e
			f(&x)
			return with(func(s *S) { s.Embedders = map[string]searchv1alpha1.Embedder{"e": x} })
		}
		before := at(func(*searchv1alpha1.Embedder) {})
		moved := indexsettings.Diff(before, at(func(x *searchv1alpha1.Embedder) {
			x.URL, x.APIKeySecret = "http://b", &searchv1alpha1.SecretKeySelector{Name: "s"}
		}))
		Expect(moved.Applied).To(Equal([]string{"embedders"}))
		Expect(moved.Rebuilt).To(BeEmpty())
		Expect(indexsettings.Diff(before, at(func(x *searchv1alpha1.Embedder) { x.Model = "m2" })).Rebuilt).To(Equal([]string{"embedders"}))
		Expect(indexsettings.Diff(before, at(func(x *searchv1alpha1.Embedder) { x.DocumentTemplate = "{{name}}" })).Rebuilt).To(Equal([]string{"embedders"}))
		Expect(indexsettings.Diff(before, at(func(x *searchv1alpha1.Embedder) { x.DocumentTemplateMaxBytes = 400 })).Rebuilt).To(BeEmpty())
	})

	It("takes an embedder's similarity left to its default as cosine", func() {
		e := searchv1alpha1.Embedder{Source: "userProvided", Dimensions: 3}
		a, b := with(func(s *S) { s.Embedders = map[string]searchv1alpha1.Embedder{"e": e} }), with(func(s *S) {
			e.Similarity = "cosine"
			s.Embedders = map[string]searchv1alpha1.Embedder{"e": e}
		})
		Expect(indexsettings.Diff(a, b).Rebuilt).To(BeEmpty())
		Expect(indexmapping.NeedsRebuild(a, b)).To(BeFalse())
		Expect(indexmapping.NeedsRebuild(base, a)).To(BeTrue())
	})
})

var _ = Describe("Checking settings", func() {
	DescribeTable("names each rule the CRD cannot state",
		func(s S, want []string) {
			var got []string
			for _, e := range indexsettings.Check(s, "aisleVersion") {
				got = append(got, e.String())
			}
			Expect(got).To(Equal(want))
		},
		Entry("valid settings", base, nil),
		Entry("embedders whose names, sources, dimensions or similarity cannot be", S{Embedders: map[string]searchv1alpha1.Embedder{
			"a.b": {Source: "userProvided", Dimensions: 3}, "ok": {Source: "rest", Dimensions: 0, Similarity: "l2_norm"}}},
			[]string{`embedders.a.b: an embedder's name is 1 to 64 letters, digits, _ and -`,
				`embedders.ok.source: "rest" is not a source (sources: openAI, userProvided)`,
				`embedders.ok.dimensions: must be 1 to 4096, got 0`,
				`embedders.ok.similarity: "l2_norm" is not a similarity (similarities: cosine)`}),
		Entry("a valid openAI embedder", S{Embedders: map[string]searchv1alpha1.Embedder{"bge": {Source: "openAI", Dimensions: 384,
			URL: "http://embedder.aisle:8080", Model: "bge-small", DocumentTemplate: "{{title}} by {{brand}}. {{description}}",
			DocumentTemplateMaxBytes: 400, APIKeySecret: &searchv1alpha1.SecretKeySelector{Name: "embedder-token", Key: "token"}}}}, nil),
		Entry("an openAI embedder without model or template", S{Embedders: map[string]searchv1alpha1.Embedder{"e": {Source: "openAI", Dimensions: 3}}},
			[]string{`embedders.e.model: is required for an openAI embedder (the model the server embeds with)`,
				`embedders.e.documentTemplate: is required for an openAI embedder, e.g. "{{title}} by {{brand}}. {{description}}"`}),
		Entry("an openAI embedder's url, template, bound and secret that cannot be", S{Embedders: map[string]searchv1alpha1.Embedder{"e": {
			Source: "openAI", Dimensions: 3, URL: "ftp://x", Model: "m", DocumentTemplate: "{{title", DocumentTemplateMaxBytes: 9000,
			APIKeySecret: &searchv1alpha1.SecretKeySelector{Name: "Bad_Name", Key: "a b"}}}},
			[]string{`embedders.e.url: "ftp://x": the scheme must be http or https`,
				`embedders.e.documentTemplate: has a {{ that is not closed by }}`,
				`embedders.e.documentTemplateMaxBytes: must be 1 to 8192, got 9000`,
				`embedders.e.apiKeySecret.name: "Bad_Name" is not a Secret's name (lower-case letters, digits, - and .)`,
				`embedders.e.apiKeySecret.key: "a b" is not a Secret's key (letters, digits, -, _ and .)`}),
		Entry("an openAI embedder's url that is relative or carries a token", S{Embedders: map[string]searchv1alpha1.Embedder{
			"a": {Source: "openAI", Dimensions: 3, URL: "embedder:8080", Model: "m", DocumentTemplate: "{{t}}"},
			"b": {Source: "openAI", Dimensions: 3, URL: "https://u:p@host", Model: "m", DocumentTemplate: "{{t}}"}}},
			[]string{`embedders.a.url: "embedder:8080" is not an absolute URL, e.g. http://embedder:8080`,
				`embedders.b.url: "https://u:p@host": no query, fragment or credentials (a token goes in apiKeySecret)`}),
		Entry("a userProvided embedder with what only an openAI one takes", S{Embedders: map[string]searchv1alpha1.Embedder{"u": {
			Source: "userProvided", Dimensions: 3, Model: "m", DocumentTemplate: "{{t}}", SendDimensions: true}}},
			[]string{`embedders.u.documentTemplate: is only for an openAI embedder (a userProvided one computes no vector)`,
				`embedders.u.model: is only for an openAI embedder (a userProvided one computes no vector)`,
				`embedders.u.sendDimensions: is only for an openAI embedder (a userProvided one computes no vector)`}),
		Entry("the reserved version field", S{FilterableFields: []F{"aisleVersion"}, CustomRanking: []searchv1alpha1.RankingRule{{Field: "aisleVersion"}}},
			[]string{`filterableFields[0]: "aisleVersion" is reserved for record versions`, `customRanking[0].field: "aisleVersion" is reserved for record versions`}),
		Entry("duplicates", S{FacetFields: []F{"brand", "brand"}, SearchableFields: []searchv1alpha1.SearchableField{sf("a", 1), sf("a", 2)}},
			[]string{`searchableFields[1].path: "a" is listed twice`, `facetFields[1]: "brand" is listed twice`}),
		Entry("a searchable field that is also an object", S{SearchableFields: []searchv1alpha1.SearchableField{sf("a", 1), sf("a.b", 1)}},
			[]string{`searchableFields: "a.b": "a" is both a leaf and an object`}),
		Entry("synonym terms no query word can be", S{Synonyms: []searchv1alpha1.SynonymGroup{{Terms: []string{"tv", "!!!", " ", "4k", "télé"}},
			{Type: "oneWay", Input: "--", Synonyms: []string{"ok", "?"}}}},
			[]string{`synonyms[0].terms[1]: "!!!" holds no letter or digit: no query can match it`,
				`synonyms[0].terms[2]: " " holds no letter or digit: no query can match it`,
				`synonyms[1].synonyms[1]: "?" holds no letter or digit: no query can match it`,
				`synonyms[1].input: "--" holds no letter or digit: no query can match it`}),
		Entry("synonym entries without what their type needs, or with what it does not take", S{Synonyms: []searchv1alpha1.SynonymGroup{
			{Type: "oneWay", Synonyms: []string{"smartphone"}},
			{Type: "altCorrection", Word: "addidas", Terms: []string{"a", "b"}},
			{Terms: []string{"a", "b"}, Typos: 1}}},
			[]string{`synonyms[0].input: is required by synonym type oneWay`,
				`synonyms[1].corrections: is required by synonym type altCorrection`, `synonyms[1].terms: is not a field of synonym type altCorrection`,
				`synonyms[2].typos: is not a field of synonym type multiWay`}),
		Entry("a criterion listed twice", S{Ranking: []searchv1alpha1.RankingCriterion{"words", "custom", "words"}},
			[]string{`ranking[2]: "words" is listed twice`}),
		Entry("typo word sizes out of order, once defaults apply", S{TypoTolerance: &searchv1alpha1.TypoTolerance{MinWordSizeFor1Typo: 9}},
			[]string{`typoTolerance.minWordSizeFor2Typos: must be at least minWordSizeFor1Typo (9)`}),
		Entry("typo rules naming a field that is not searchable, and a word twice", S{SearchableFields: base.SearchableFields,
			TypoTolerance: &searchv1alpha1.TypoTolerance{DisableOnFields: []F{"name", "sku"}, DisableOnWords: []string{"Pro", "pro"}}},
			[]string{`typoTolerance.disableOnFields[1]: "sku" is not a searchable field (searchable fields: [description name])`,
				`typoTolerance.disableOnWords[1]: "pro" is listed twice`}),
		Entry("a stop word twice", S{StopWords: &searchv1alpha1.StopWords{Words: []string{"cheap", "Cheap"}}},
			[]string{`stopWords.words[1]: "Cheap" is listed twice`}),
		Entry("suggestions: minDays out of range, an excluded word twice, two words as one", S{Suggestions: &searchv1alpha1.SuggestionsSetting{
			MinDays: ptr(int32(0)), Exclude: []string{"Crème", "creme", "red shoe", " "}}},
			[]string{"suggestions.minDays: must be from 1 to 90", `suggestions.exclude[2]: "red shoe" must be one word`,
				`suggestions.exclude[3]: " " must be one word`, `suggestions.exclude[1]: "creme" is listed twice`}),
		Entry("similarWithin outside the facet fields", with(func(s *S) {
			s.Recommendations = &searchv1alpha1.RecommendationSettings{SimilarWithin: "category"}
		}), []string{`recommendations.similarWithin: "category" is not a facet field (facet fields: brand)`}),
		Entry("similarWithin among the facet fields", with(func(s *S) {
			s.Recommendations = &searchv1alpha1.RecommendationSettings{SimilarWithin: "brand"}
		}), nil),
	)
})

var _ = Describe("Checking searchable fields against the index's records", func() {
	schema := searchquery.Schema{
		"name":        {Path: "name", Kind: searchquery.KindString, Type: "text"},
		"specs.color": {Path: "specs.color", Kind: searchquery.KindString, Type: "text"},
		"specs.size":  {Path: "specs.size", Kind: searchquery.KindNumber, Type: "long"},
		"empty":       {Path: "empty", Kind: searchquery.KindOther, Type: "object"},
		"price":       {Path: "price", Kind: searchquery.KindNumber, Type: "float"},
	}
	DescribeTable("names each path whose records hold something else than text",
		func(path string, want []string) {
			var got []string
			for _, e := range indexsettings.CheckShapes(S{SearchableFields: []searchv1alpha1.SearchableField{sf(path, 1)}}, schema) {
				got = append(got, e.String())
			}
			Expect(got).To(Equal(want))
		},
		Entry("a text field", "name", nil),
		Entry("a number field (numbers index as text)", "price", nil),
		Entry("a field no record holds yet", "title", nil),
		Entry("a field under an object", "specs.color", nil),
		Entry("a new field under an object", "specs.weight", nil),
		Entry("a new field under an empty object", "empty.note", nil),
		Entry("an object", "specs", []string{`searchableFields[0].path: "specs" holds objects in this index (specs.color, specs.size); a searchable field holds text`}),
		Entry("an empty object", "empty", []string{`searchableFields[0].path: "empty" holds objects in this index; a searchable field holds text`}),
		Entry("a field under a value", "name.first", []string{`searchableFields[0].path: "name" holds values in this index, not objects`}),
		Entry("a field two levels under a value", "price.a.b", []string{`searchableFields[0].path: "price" holds values in this index, not objects`}),
	)
})
