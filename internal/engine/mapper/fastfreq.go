package mapper

import (
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	index "github.com/blevesearch/bleve_index_api"
)

// ES's standard analyzer (standard tokenizer + lowercase) on plain ASCII text builds its
// term frequencies straight from the text: no token structs, no token stream, no
// lowercase pass over tokens. Those were half of analysis's CPU and a third of its
// allocations for a product description; the result is what the analyzer and
// tokenFrequency produce, as a randomized test checks.

// isStandardLowercase reports whether a is exactly the standard tokenizer followed by
// the lowercase filter.
func isStandardLowercase(a analysis.Analyzer) bool {
	d, ok := a.(*analysis.DefaultAnalyzer)
	if !ok || len(d.CharFilters) != 0 || len(d.TokenFilters) != 1 {
		return false
	}
	if _, ok := d.Tokenizer.(fastStandard); !ok {
		return false
	}
	_, ok = d.TokenFilters[0].(*lowercase.LowerCaseFilter)
	return ok
}

// asciiLowercase lowercases input in place and counts its tokens as the standard
// analyzer does; ok is false when input is not plain ASCII text the fast tokenizer
// handles.
func asciiLowercase(input []byte) (n int, ok bool) {
	for i, c := range input {
		if !asciiSafe[c] {
			return 0, false
		}
		if isAlnum(c) && (i == 0 || !isAlnum(input[i-1])) {
			n++
		}
		if c-'A' < 26 {
			// Lowercasing before knowing the text is all ASCII is harmless: the slow path
			// lowercases again, and case never moves a word boundary.
			input[i] = c + 'a' - 'A'
		}
	}
	return n, true
}

// asciiFrequencies analyzes input (which it lowercases in place) as the standard analyzer
// does and returns the token count and frequencies, positions moved by offset; ok is false
// when input is not plain ASCII text the fast tokenizer handles.
func asciiFrequencies(input []byte, offset int, opts index.FieldIndexingOptions) (n int, freqs index.TokenFrequencies, ok bool) {
	if n, ok = asciiLowercase(input); !ok {
		return 0, nil, false
	}
	return n, lowercaseFrequencies(input, n, offset, opts), true
}

// lowercaseFrequencies returns the frequencies of the n tokens of input, lowercased ASCII
// text (see asciiLowercase), positions moved by offset.
func lowercaseFrequencies(input []byte, n, offset int, opts index.FieldIndexingOptions) index.TokenFrequencies {
	b := newFreqBuilder(n, opts)
	eachWord(input, func(k, start, end int) { b.add(k, input[start:end]) })
	if opts.IncludeTermVectors() {
		b.locate(func(at func(k, start, end, pos int)) {
			eachWord(input, func(k, start, end int) { at(k, start, end, offset+k+1) })
		})
	}
	return b.freqs
}

// eachWord calls fn with the index and byte span of each maximal run of ASCII letters and
// digits, the standard tokenizer's words in plain ASCII text.
func eachWord(input []byte, fn func(k, start, end int)) {
	k := 0
	for i := 0; i < len(input); {
		if !isAlnum(input[i]) {
			i++
			continue
		}
		start := i
		for i < len(input) && isAlnum(input[i]) {
			i++
		}
		fn(k, start, i)
		k++
	}
}
