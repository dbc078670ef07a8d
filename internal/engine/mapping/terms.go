package mapping

import (
	"unsafe"

	"github.com/blevesearch/bleve/v2/document"
	index "github.com/blevesearch/bleve_index_api"
)

// termsField indexes terms known when the document is built: a keyword value (one term)
// or the names listed in _field_names. Going through a bleve analyzer cost a token, a
// token stream and the whitespace tokenizer's per-rune decoding for each of them, about
// a tenth of all analysis for a typical document, to produce the same frequencies.
type termsField struct {
	*document.TextField
	terms []string
	freqs index.TokenFrequencies
}

// newKeywordField indexes value as one term, as the keyword analyzer does.
func newKeywordField(path, value string, opts index.FieldIndexingOptions) *termsField {
	return &termsField{TextField: document.NewTextFieldWithIndexingOptions(path, nil, []byte(value), opts), terms: []string{value}}
}

// newFieldNamesField indexes each distinct field name of a document as one term.
func newFieldNamesField(seen map[string]bool) *termsField {
	names := make([]string, 0, len(seen))
	for name := range seen {
		names = append(names, name)
	}
	return &termsField{TextField: document.NewTextFieldWithIndexingOptions(FieldNames, nil, nil, index.IndexField), terms: names}
}

// Analyze builds the term frequencies; bleve calls it on its analysis workers, outside
// the index write lock. Every term occurs once: a keyword is one term, field names are
// distinct.
func (f *termsField) Analyze() {
	freqs := make(index.TokenFrequencies, len(f.terms))
	tfs := make([]index.TokenFreq, len(f.terms))
	for i, t := range f.terms {
		// The term aliases the string's bytes (no copy per term): bleve only reads terms.
		tfs[i].Term = unsafe.Slice(unsafe.StringData(t), len(t))
		if !f.Options().SkipFreqNorm() {
			tfs[i].SetFrequency(1)
		}
		freqs[t] = &tfs[i]
	}
	f.freqs = freqs
}

// AnalyzedLength implements document.Field: one token per term.
func (f *termsField) AnalyzedLength() int { return len(f.terms) }

// AnalyzedTokenFrequencies implements document.Field.
func (f *termsField) AnalyzedTokenFrequencies() index.TokenFrequencies { return f.freqs }
