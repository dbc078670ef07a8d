package mapper

import (
	"math/rand"
	"reflect"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
)

// TestFastStandardMatchesUnicode checks the ASCII fast path against bleve's Unicode
// segmenter on random text over every safe byte and a few that force the slow path.
func TestFastStandardMatchesUnicode(t *testing.T) {
	safe := "ab zZ09 9x\t\n\r-!\"#$%&()*+/<=>?@[]^`{|}~\\"
	fast, slow := fastStandard{slow: unicode.NewUnicodeTokenizer()}, unicode.NewUnicodeTokenizer()
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 40000; i++ {
		alphabet := []byte(safe)
		if i%2 == 1 {
			alphabet = []byte(safe + ".',:;_é")
		}
		in := make([]byte, r.Intn(40))
		for j := range in {
			in[j] = alphabet[r.Intn(len(alphabet))]
		}
		got, want := fast.Tokenize(in), slow.Tokenize(in)
		if len(got) == 0 && len(want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %v\nwant %v", in, got, want)
		}
	}
}
