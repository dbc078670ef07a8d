package dsl_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/aislehq/aisle/internal/engine/dsl"
	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
	"github.com/aislehq/aisle/internal/engine/vectors"
)

func fuzzContext() *dsl.Context {
	leaves := map[string]*mapper.Leaf{
		"title":   {Path: "title", Type: "text", Analyzer: "standard", SearchAnalyzer: "standard"},
		"brand":   {Path: "brand", Type: "keyword"},
		"price":   {Path: "price", Type: "float"},
		"stock":   {Path: "stock", Type: "long"},
		"created": {Path: "created", Type: "date"},
		"ok":      {Path: "ok", Type: "boolean"},
	}
	return &dsl.Context{
		Index: "fuzz",
		Leaf:  func(p string) *mapper.Leaf { return leaves[p] },
		Leaves: func() []string {
			return []string{"brand", "created", "ok", "price", "stock", "title"}
		},
		Analyze: func(_, text string) []string { return []string{text} },
		AnalyzePositions: func(_, text string) [][]string {
			var out [][]string
			for _, w := range strings.Fields(text) {
				out = append(out, []string{w})
			}
			return out
		},
		PrefixTerms: func(_, prefix string, _ int) []string { return []string{prefix + "x"} },
		Corpus:      fuzzCorpus{},
		Vector: func(p string) (vectors.Options, bool, bool) {
			switch p {
			case "vec":
				return vectors.Options{Dims: 3, Indexed: true, Similarity: vectors.Cosine, Type: "hnsw", M: 16, EfConstruction: 100}, true, true
			case "bytes":
				return vectors.Options{Dims: 2, Indexed: true, Element: vectors.Byte, Similarity: vectors.DotProduct, Type: "flat"}, true, true
			}
			return vectors.Options{}, leaves[p] != nil, false
		},
	}
}

// fuzzCorpus holds one document, "1", for more_like_this.
type fuzzCorpus struct{}

func (fuzzCorpus) Source(_, id string) (map[string]any, bool, error) {
	if id != "1" {
		return nil, false, nil
	}
	return map[string]any{"title": "red wool socks", "brand": "acme", "price": json.Number("9")}, true, nil
}

func (fuzzCorpus) DocFreq(_, term string) int { return len(term) % 4 }

func (fuzzCorpus) NumDocs() int { return 10 }

// FuzzParse checks that no query body makes the parser panic and that every rejection is
// an ES-shaped 4xx error. `go test` runs the seed corpus below.
func FuzzParse(f *testing.F) {
	seeds := []string{
		`{"match_all":{}}`, `{"match":{"title":"red shoes"}}`,
		`{"match":{"title":{"query":"a b","operator":"and","minimum_should_match":"75%","fuzziness":"AUTO"}}}`,
		`{"multi_match":{"query":"x","fields":["title^3","br*"],"type":"phrase_prefix"}}`,
		`{"match_phrase_prefix":{"title":"quick bro"}}`, `{"term":{"price":"abc"}}`, `{"term":{"ok":"maybe"}}`,
		`{"terms":{"brand":["a","b",1,null]}}`, `{"range":{"created":{"gte":"now-1d/d","lt":"2024-01-01||+1M"}}}`,
		`{"range":{"price":{"gt":"x"}}}`, `{"exists":{"field":"ti*"}}`, `{"ids":{"values":[1,"2"]}}`,
		`{"prefix":{"brand":{"value":"ac"}}}`, `{"bool":{"must":[{"term":{"brand":"a"}}],"should":{"match_all":{}},"minimum_should_match":-1}}`,
		`{"bool":{"filter":"x"}}`, `{"unknown":{}}`, `[]`, `{"a":1,"b":2}`, `{"range":{"stock":5}}`,
		`{"constant_score":{"filter":{"term":{"brand":"x"}},"boost":"high"}}`,
		`{"match_phrase":{"title":{"query":"a b","slop":0}}}`, `{"match_phrase":{"title":{"query":"a b","slop":2}}}`,
		`{"match_phrase_prefix":{"title":{"query":"a b","slop":"x"}}}`,
		`{"multi_match":{"query":"a b","fields":["title"],"type":"phrase","slop":null}}`,
		`{"more_like_this":{"fields":["title","brand"],"like":[{"_id":"1"},"red shoes"],"min_term_freq":1,"min_doc_freq":1}}`,
		`{"more_like_this":{"like":[{"doc":{"title":"a b","brand":["x"]}}],"unlike":{"_id":"1"},"boost_terms":2,"include":true}}`,
		`{"more_like_this":{"fields":["price"],"like":"x","fail_on_unsupported_field":false,"max_query_terms":-1}}`,
		`{"more_like_this":{"fields":["title"],"like":"x","stop_words":["x"],"minimum_should_match":"-50%","min_word_length":"2"}}`,
		`{"knn":{"field":"vec","query_vector":[1,2,3],"k":2,"num_candidates":5,"filter":[{"term":{"brand":"a"}}],"similarity":0.5}}`,
		`{"knn":{"field":"bytes","query_vector":"807f","k":0}}`, `{"knn":{"field":"vec","query_vector":[0,0,0]}}`,
		`{"knn":{"field":"title","query_vector":[1]}}`, `{"knn":{"field":"vec","query_vector":[1,2,3],"num_candidates":20000}}`,
	}
	for _, s := range seeds {
		f.Add(s)
	}
	ctx := fuzzContext()
	f.Fuzz(func(t *testing.T, body string) {
		if !json.Valid([]byte(body)) {
			return
		}
		q, err := dsl.Parse(json.RawMessage(body), ctx)
		if err != nil {
			var e *eserr.Error
			if !errors.As(err, &e) || e.Status < 400 || e.Status >= 500 {
				t.Fatalf("non-ES error for %s: %v", body, err)
			}
			return
		}
		if q == nil {
			t.Fatalf("nil query without error for %s", body)
		}
	})
}
