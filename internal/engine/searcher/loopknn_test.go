package searcher

import (
	"encoding/json"
	"fmt"
	"math/rand"

	. "github.com/onsi/ginkgo/v2"

	"github.com/aislehq/aisle/internal/engine/store"
)

const knnDiffMapping = `{"properties":{
 "title":{"type":"text","analyzer":"english"},"brand":{"type":"keyword"},"price":{"type":"integer"},
 "vec":{"type":"dense_vector","dims":8,"index":true,"similarity":"cosine","index_options":{"type":"int8_hnsw"}}}}`

// knnDiffIndex is an index of several segments with vectors, deleted and updated
// documents among them, and documents without a vector.
func knnDiffIndex(dir string, r *rand.Rand) *store.Index {
	ix := newIndex(dir, "knndiff", knnDiffMapping)
	doc := func() []byte {
		d := map[string]any{"title": diffWords[r.Intn(len(diffWords))] + " " + diffWords[r.Intn(len(diffWords))],
			"brand": fmt.Sprint("b", r.Intn(4)), "price": r.Intn(500)}
		if r.Intn(8) != 0 {
			v := make([]float64, 8)
			for i := range v {
				v[i] = r.Float64()*2 - 1
			}
			d["vec"] = v
		}
		raw, _ := json.Marshal(d)
		return raw
	}
	next := 0
	for batch, size := range []int{3000, 200, 150, 100} {
		var ops []store.Op
		for i := 0; i < size; i++ {
			ops = append(ops, store.Op{Kind: store.OpIndex, ID: fmt.Sprint(next), Source: doc()})
			next++
		}
		for i := 0; i < 20 && batch > 0; i++ {
			id := fmt.Sprint(r.Intn(next - size))
			if r.Intn(2) == 0 {
				ops = append(ops, store.Op{Kind: store.OpDelete, ID: id})
			} else {
				ops = append(ops, store.Op{Kind: store.OpIndex, ID: id, Source: doc()})
			}
		}
		write(ix, ops)
	}
	return ix
}

// A hybrid search (internal/searchquery) is a bool whose words may be matched or its
// kNN top k: the loop runs both, so that one kNN clause does not send the whole search,
// its facets included, down bleve's slower path.
var _ = Describe("The engine's own search loop on kNN queries", Ordered, func() {
	var ix *store.Index
	BeforeAll(func() { ix = knnDiffIndex(GinkgoT().TempDir(), rand.New(rand.NewSource(11))) })

	vec := `[0.3,-0.2,0.9,0.1,-0.5,0.4,0.05,-0.7]`
	knn := func(extra string) string {
		return `{"knn":{"field":"vec","query_vector":` + vec + `,"k":50,"num_candidates":100` + extra + `}}`
	}
	DescribeTable("runs them, matching and scoring as bleve's searchers",
		func(query string) { expectLoopAsBleve(ix, query, 40) },
		Entry("a kNN query alone", knn("")),
		Entry("a kNN query boosted, with a filter", knn(`,"boost":0.3,"filter":{"term":{"brand":"b1"}}`)),
		Entry("a kNN query whose filters are a price range and a brand (checked from columns)",
			knn(`,"filter":[{"range":{"price":{"lt":400}}},{"bool":{"must_not":[{"term":{"brand":"b3"}}]}}]`)),
		Entry("a kNN query whose filter matches words (no check from columns: the documents bleve finds)",
			knn(`,"filter":{"match":{"title":"jacket"}}`)),
		Entry("the words or the kNN top k, a tie-breaker beside (a hybrid search)",
			`{"bool":{"must":[{"bool":{"should":[{"bool":{"must":[{"match":{"title":"jacket"}}]}},`+knn(`,"boost":0.009`)+`]}}],
			 "should":[{"multi_match":{"query":"jacket","fields":["title"],"boost":0.01}}]}}`),
		Entry("the words or a kNN clause whose filter matches nothing",
			`{"bool":{"should":[{"match":{"title":"boot"}},`+knn(`,"filter":{"term":{"brand":"none"}}`)+`]}}`),
		Entry("the words or the kNN top k, under a bool's filter of a brand",
			`{"bool":{"must":[{"bool":{"should":[{"match":{"title":"rain"}},`+knn(``)+`]}}],"filter":[{"term":{"brand":"b2"}}]}}`),
	)
})
