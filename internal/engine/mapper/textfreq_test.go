package mapper

import (
	"math/rand"
	"reflect"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	index "github.com/blevesearch/bleve_index_api"
)

// variant gives the i-th test case its indexing options (with and without term vectors and
// norms) and the offset of its positions (as for a later value of an array).
func variant(i int) (index.FieldIndexingOptions, int) {
	opts := index.IndexField
	if i%2 == 0 {
		opts |= index.IncludeTermVectors
	}
	if i%5 == 0 {
		opts |= index.SkipFreqNorm
	}
	return opts, (i % 3) * (PositionGap + 7)
}

// shifted is tokens with their positions moved by offset.
func shifted(tokens analysis.TokenStream, offset int) analysis.TokenStream {
	out := make(analysis.TokenStream, len(tokens))
	for i, tok := range tokens {
		moved := *tok
		moved.Position += offset
		out[i] = &moved
	}
	return out
}

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
		opts, offset := variant(i)
		got, want := tokenFrequency(tokens, offset, opts), analysis.TokenFrequency(shifted(tokens, offset), nil, opts)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("tokens %v opts %v:\n got %v\nwant %v", tokens, opts, got, want)
		}
	}
}

// TestASCIIFrequenciesMatchStandardAnalyzer checks the fused analysis of plain ASCII text
// against the standard analyzer (tokenizer, lowercase filter) and tokenFrequency, on random
// texts of letters, digits, punctuation and whitespace, with and without term vectors.
func TestASCIIFrequenciesMatchStandardAnalyzer(t *testing.T) {
	im, err := BuildIndexMapping(nil)
	if err != nil {
		t.Fatal(err)
	}
	standard := im.AnalyzerNamed("es:standard")
	if !isStandardLowercase(standard) {
		t.Fatal("es:standard is not recognised as the standard tokenizer with lowercase")
	}
	if isStandardLowercase(im.AnalyzerNamed("es:english")) {
		t.Fatal("es:english taken for the standard analyzer")
	}
	r := rand.New(rand.NewSource(2))
	fast := 0
	for i := 0; i < 20000; i++ {
		alphabet := "aAbBzZ09 7x-X\"!?/\t\n()"
		if i%10 == 0 {
			alphabet += ".,:;_'"
		}
		text := make([]byte, r.Intn(60))
		for j := range text {
			text[j] = alphabet[r.Intn(len(alphabet))]
		}
		opts, offset := variant(i)
		tokens := standard.Analyze(append([]byte(nil), text...))
		want := tokenFrequency(tokens, offset, opts)
		n, got, ok := asciiFrequencies(append([]byte(nil), text...), offset, opts)
		if !ok {
			// ' . : , ; _ may join words (UAX #29): such texts take the slow path.
			continue
		}
		if n != len(tokens) || !reflect.DeepEqual(got, want) {
			t.Fatalf("%q opts %v: %d tokens, want %d\n got %v\nwant %v", text, opts, n, len(tokens), got, want)
		}
		fast++
	}
	if fast < 15000 {
		t.Fatalf("only %d of 20000 texts took the fast path", fast)
	}
	if _, _, ok := asciiFrequencies([]byte("Crème brûlée"), 0, index.IndexField); ok {
		t.Fatal("non-ASCII text took the fast path")
	}
}
