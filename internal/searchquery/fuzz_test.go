package searchquery_test

import (
	"encoding/json"
	"errors"
	"testing"
	"unicode/utf8"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/internal/strictjson"
)

// fuzzSchema maps a field of every kind, so values meet every rule.
var fuzzSchema = searchquery.Schema{
	"name":      {Path: "name", Kind: searchquery.KindString, Type: "text", Keyword: "name.keyword"},
	"brand":     {Path: "brand", Kind: searchquery.KindString, Type: "keyword", Keyword: "brand"},
	"price":     {Path: "price", Kind: searchquery.KindNumber, Type: "float", Keyword: "price"},
	"stock":     {Path: "stock", Kind: searchquery.KindNumber, Type: "long", Keyword: "stock"},
	"inStock":   {Path: "inStock", Kind: searchquery.KindBool, Type: "boolean", Keyword: "inStock"},
	"createdAt": {Path: "createdAt", Kind: searchquery.KindDate, Type: "date", Keyword: "createdAt"},
	"loc":       {Path: "loc", Kind: searchquery.KindOther, Type: "geo_point", Keyword: "loc"},
}

var fuzzSettings = searchv1alpha1.IndexSettings{
	FilterableFields: []searchv1alpha1.FieldPath{"name", "brand", "price", "stock", "inStock", "createdAt", "loc", "unmapped"},
	FacetFields:      []searchv1alpha1.FieldPath{"brand", "inStock"},
	SortableFields:   []searchv1alpha1.FieldPath{"price", "createdAt"},
}

// FuzzBuild: a search body decoded as the API decodes it is either a 400 (ErrInvalid)
// or a plan whose body is JSON, with a key or from a browser; nothing panics. Seeds are
// in testdata/fuzz/FuzzBuild.
func FuzzBuild(f *testing.F) {
	f.Add([]byte(`{"q": "shoe", "offset": 10, "limit": 5, "filters": {"and": [{"field": "price", "range": {"gte": 1}}, {"field": "inStock", "eq": true}]}}`))
	f.Add([]byte(`{"q": "shoe", "hybrid": {"embedder": "use", "semanticRatio": 0.3}, "vector": [1, 0, 0], "explain": true, "filters": {"field": "inStock", "eq": true}}`))
	hybrid := *fuzzSettings.DeepCopy()
	hybrid.Embedders = map[string]searchv1alpha1.Embedder{"use": {Source: searchv1alpha1.EmbedderUserProvided, Dimensions: 3}}
	public := searchv1alpha1.PublicSearchPolicy{AllowedFilters: fuzzSettings.FilterableFields, AllowedFacets: fuzzSettings.FacetFields,
		ForcedFilters: []searchv1alpha1.FilterCondition{{Field: "inStock", Values: []string{"true"}}}}
	f.Fuzz(func(t *testing.T, body []byte) {
		var req searchquery.Request
		if strictjson.Decode(body, &req) != nil {
			return
		}
		for _, access := range []searchquery.Access{searchquery.KeyedAccess(fuzzSettings), searchquery.PublicAccess(fuzzSettings, public), searchquery.KeyedAccess(hybrid)} {
			plan, err := searchquery.Build(req, access, fuzzSchema)
			if err != nil {
				if !errors.Is(err, searchquery.ErrInvalid) {
					t.Fatalf("%q: an error that is not a 400: %v", body, err)
				}
				continue
			}
			if !json.Valid(plan.Bodies.Search) {
				t.Fatalf("%q: the plan's body is not JSON: %s", body, plan.Bodies.Search)
			}
		}
	})
}

// FuzzCheckPolicy: a policy is either refused with ErrInvalid or accepted, and a search
// under any policy, accepted or not (a field's kind may change after), never fails.
func FuzzCheckPolicy(f *testing.F) {
	f.Add([]byte(`{"maxHits": 10, "forcedFilters": [{"field": "price", "range": {"gte": "abc"}}, {"field": "inStock", "values": ["maybe"]}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var p searchv1alpha1.PublicSearchPolicy
		if strictjson.Decode(body, &p) != nil {
			return
		}
		if err := searchquery.CheckPolicy(p, fuzzSchema); err != nil && !errors.Is(err, searchquery.ErrInvalid) {
			t.Fatalf("%q: an error that is not a 400: %v", body, err)
		}
		p.AllowedFilters, p.AllowedFacets, p.AllowedSorts = nil, nil, nil
		if _, err := searchquery.Build(searchquery.Request{}, searchquery.PublicAccess(fuzzSettings, p), fuzzSchema); err != nil {
			t.Fatalf("%q: a public search under the policy failed: %v", body, err)
		}
	})
}

// groupedSettings facet a number and group records, so that facetFilters, facetStats,
// distinct and variants meet every rule.
var groupedSettings = func() searchv1alpha1.IndexSettings {
	s := *fuzzSettings.DeepCopy()
	s.FacetFields = append(s.FacetFields, "price", "name")
	s.Distinct = &searchv1alpha1.DistinctSetting{Field: "brand", Limit: 2}
	return s
}()

// FuzzBuildGrouped: a search body with facetFilters, distinct and variantsLimit is either
// a 400 or a plan whose body, and merge round's bodies, are JSON; nothing panics.
func FuzzBuildGrouped(f *testing.F) {
	f.Add([]byte(`{"q": "shoe", "facets": ["brand", "price"], "facetFilters": {"brand": ["acme"], "price": [1, 2]}, "distinct": 2, "variantsLimit": 3}`))
	f.Add([]byte(`{"facetFilters": {"inStock": [true], "nope": []}, "distinct": true, "offset": 990}`))
	public := searchv1alpha1.PublicSearchPolicy{AllowedFacets: []searchv1alpha1.FieldPath{"brand", "price"}}
	f.Fuzz(func(t *testing.T, body []byte) {
		var req searchquery.Request
		if strictjson.Decode(body, &req) != nil {
			return
		}
		for _, access := range []searchquery.Access{searchquery.KeyedAccess(groupedSettings), searchquery.PublicAccess(groupedSettings, public)} {
			plan, err := searchquery.Build(req, access, fuzzSchema)
			if err != nil {
				if !errors.Is(err, searchquery.ErrInvalid) {
					t.Fatalf("%q: an error that is not a 400: %v", body, err)
				}
				continue
			}
			m := plan.Bodies.Merge
			if !json.Valid(plan.Bodies.Search) || plan.Shaping.Grouped() != (m != nil) || m != nil && (!json.Valid(m.Grouped) || !json.Valid(m.Single)) {
				t.Fatalf("%q: a body is not JSON, or merge bodies without grouping or grouping without them: %s", body, plan.Bodies.Search)
			}
		}
	})
}

// FuzzFacetSearch: a facet value search of any field with any body is either a 400 or
// a plan whose body is JSON, and its answer to any counts shapes; nothing panics.
func FuzzFacetSearch(f *testing.F) {
	f.Add([]byte(`{"facetQuery": "ac", "q": "shoe", "facetFilters": {"brand": ["acme"]}, "maxValues": 5}`), "brand")
	f.Add([]byte(`{"facetQuery": "(.*[x"}`), "name")
	f.Fuzz(func(t *testing.T, body []byte, field string) {
		var req searchquery.FacetSearchRequest
		if strictjson.Decode(body, &req) != nil {
			return
		}
		plan, err := searchquery.BuildFacetSearch(req, field, searchquery.KeyedAccess(groupedSettings), fuzzSchema, 0)
		if err != nil {
			if !errors.Is(err, searchquery.ErrInvalid) {
				t.Fatalf("%q %q: an error that is not a 400: %v", body, field, err)
			}
			return
		}
		if !json.Valid(plan.Body) {
			t.Fatalf("%q: the plan's body is not JSON: %s", body, plan.Body)
		}
		answer, _ := json.Marshal(map[string]any{"aggregations": map[string]any{"values": map[string]any{"buckets": []any{
			map[string]any{"key": req.FacetQuery, "doc_count": 1}, map[string]any{"key": field + " " + req.Q, "doc_count": 2}}}}})
		if _, err := searchquery.ShapeFacetSearch(plan, answer); err != nil {
			t.Fatalf("%q: %v", body, err)
		}
	})
}

// FuzzSuggestionMatcher: any typed text against any past query matches or not, never
// panics, and a match carries at most two typos a typed word (so two a typed rune).
func FuzzSuggestionMatcher(f *testing.F) {
	f.Add("cottn t", "cotton tee", "sale")
	f.Add("É ", "é\u0301 x", "")
	f.Fuzz(func(t *testing.T, typed, query, exclude string) {
		typos, ok := searchquery.NewSuggestionMatcher(typed, searchv1alpha1.IndexSettings{}, []string{exclude}).Match(query)
		if ok && (typos < 0 || typos > 2*utf8.RuneCountInString(typed)) {
			t.Fatalf("%q against %q: %d typos", typed, query, typos)
		}
	})
}
