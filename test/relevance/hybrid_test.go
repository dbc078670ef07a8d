package relevance

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/test/judged"
)

// embedder is the name of a set's sentence vectors' embedder (Universal Sentence
// Encoder lite, 512 dimensions, as userProvided vectors).
const embedder = "use"

// embedders gives a set with vectors its embedder; only in bench mode, so that make
// test's floor does not pay for indexing the vectors.
func embedders(s *judged.Set) map[string]searchv1alpha1.Embedder {
	if len(s.Vectors) == 0 || !benchmarking() {
		return nil
	}
	var dims int32
	for _, v := range s.Vectors {
		dims = int32(len(v))
		break
	}
	return map[string]searchv1alpha1.Embedder{embedder: {Source: searchv1alpha1.EmbedderUserProvided, Dimensions: dims}}
}

// withVectors is a product as written: its vector under _vectors when its set has an
// embedder and a vector for it.
func withVectors(s *judged.Set, p map[string]any) map[string]any {
	v, ok := s.Vectors[fmt.Sprint(p["objectID"])]
	if !ok || embedders(s) == nil {
		return p
	}
	out := make(map[string]any, len(p)+1)
	for k, x := range p {
		out[k] = x
	}
	out["_vectors"] = map[string]any{embedder: v}
	return out
}

// hybrid searches by words and meaning at ratio (nil: the default), with the query's
// vector; a query without one is searched by words alone.
func hybrid(s *judged.Set, ratio *float64) searcher {
	words := aisle(s, nil)
	return func(ctx context.Context, q string) ([]string, int) {
		v, ok := s.QueryVectors[q]
		if !ok {
			return words(ctx, q)
		}
		h := map[string]any{"embedder": embedder}
		if ratio != nil {
			h["semanticRatio"] = *ratio
		}
		return aisle(s, map[string]any{"hybrid": h, "vector": v})(ctx, q)
	}
}

// ratios are the semantic ratios measured beside the default: 0.25, 0.75, meaning
// only, then those of AISLE_RELEVANCE_RATIOS (separated by ",").
func ratios() []float64 {
	out := []float64{0.25, 0.75, 1}
	for _, r := range strings.Split(os.Getenv("AISLE_RELEVANCE_RATIOS"), ",") {
		if x, err := strconv.ParseFloat(strings.TrimSpace(r), 64); err == nil {
			out = append(out, x)
		}
	}
	return out
}

var _ = Describe("Hybrid search on judged catalogs", func() {
	It("prints words only beside hybrid at each ratio (make bench-relevance)", func(ctx SpecContext) {
		if !benchmarking() {
			Skip("AISLE_BENCH is not set")
		}
		for _, s := range sets {
			if embedders(s) == nil {
				continue
			}
			runs := []judged.Run{measure(ctx, "aisle words", s, aisle(s, nil)), measure(ctx, "aisle hybrid (default)", s, hybrid(s, nil))}
			for _, r := range ratios() {
				name := fmt.Sprintf("aisle hybrid %g", r)
				if r == 1 {
					name = "aisle semantic only"
				}
				runs = append(runs, measure(ctx, name, s, hybrid(s, &r)))
			}
			judged.Report(os.Stdout, s.Name+" hybrid", runs, "aisle words")
		}
	})
})
