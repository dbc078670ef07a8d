package mapper

import (
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/registry"
)

// standardTokenizer is the name of the tokenizer behind ES's standard tokenizer.
const standardTokenizer = "aisle:standard"

// asciiSafe marks the bytes whose word-boundary (UAX #29) behaviour this tokenizer
// reproduces: letters and digits, which join into words, and ASCII punctuation and
// whitespace that never join anything. Everything else (non-ASCII, and ' . : , ; _ which
// may join letters or digits) sends the text to bleve's Unicode segmenter.
var asciiSafe = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	for _, c := range " \t\n\r\v\f!\"#$%&()*+-/<=>?@[\\]^`{|}~" {
		t[c] = true
	}
	return t
}()

func isAlnum(c byte) bool { return c-'0' < 10 || (c|0x20)-'a' < 26 }

// fastStandard tokenizes plain ASCII text directly (the segmenter's state machine was the
// largest part of analysis) and produces exactly the tokens bleve's unicode tokenizer
// would: maximal runs of letters and digits, 1-based positions, byte offsets, and the
// Numeric type for all-digit words.
type fastStandard struct{ slow *unicode.UnicodeTokenizer }

func (t fastStandard) Tokenize(input []byte) analysis.TokenStream {
	n := 0
	for i, c := range input {
		if !asciiSafe[c] {
			return t.slow.Tokenize(input)
		}
		if isAlnum(c) && (i == 0 || !isAlnum(input[i-1])) {
			n++
		}
	}
	toks := make([]analysis.Token, n)
	out := make(analysis.TokenStream, n)
	k := 0
	for i := 0; i < len(input); {
		if !isAlnum(input[i]) {
			i++
			continue
		}
		start, digits := i, true
		for ; i < len(input) && isAlnum(input[i]); i++ {
			digits = digits && input[i]-'0' < 10
		}
		typ := analysis.AlphaNumeric
		if digits {
			typ = analysis.Numeric
		}
		toks[k] = analysis.Token{Term: input[start:i], Start: start, End: i, Position: k + 1, Type: typ}
		out[k] = &toks[k]
		k++
	}
	return out
}

func init() {
	err := registry.RegisterTokenizer(standardTokenizer, func(map[string]any, *registry.Cache) (analysis.Tokenizer, error) {
		return fastStandard{slow: unicode.NewUnicodeTokenizer()}, nil
	})
	if err != nil {
		panic(err)
	}
}
