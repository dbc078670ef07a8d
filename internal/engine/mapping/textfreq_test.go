package mapping

import (
	"math/rand"
	"reflect"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	index "github.com/blevesearch/bleve_index_api"
)

// TestTokenFrequencyMatchesBleve checks the slab-allocated frequencies against bleve's
// analysis.TokenFrequency on random token streams, with and without term vectors.
func TestTokenFrequencyMatchesBleve(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	words := []string{"a", "bb", "ccc", "dd", "e", ""}
	for i := 0; i < 5000; i++ {
		var tokens analysis.TokenStream
		for p := 0; p < r.Intn(30); p++ {
			w := words[r.Intn(len(words))]
			tokens = append(tokens, &analysis.Token{Term: []byte(w), Start: p * 4, End: p*4 + len(w), Position: p + 1})
		}
		opts := index.IndexField
		if i%2 == 0 {
			opts |= index.IncludeTermVectors
		}
		if i%5 == 0 {
			opts |= index.SkipFreqNorm
		}
		arrayPos := []uint64{uint64(i % 3)}
		got, want := tokenFrequency(tokens, arrayPos, opts), analysis.TokenFrequency(tokens, arrayPos, opts)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("tokens %v opts %v:\n got %v\nwant %v", tokens, opts, got, want)
		}
	}
}
