package mapper

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
	// By value, not by pointer: one object per field instead of two, which bleve and zap
	// read field by field for every document (Name alone was 3% of indexing CPU, in
	// cache misses).
	document.TextField
	terms []string
	freqs index.TokenFrequencies
}

// newKeywordField indexes value as one term, as the keyword analyzer does.
func newKeywordField(path, value string, opts index.FieldIndexingOptions) *termsField {
	// The value aliases the string's bytes: nothing writes to a keyword's value.
	v := unsafe.Slice(unsafe.StringData(value), len(value))
	return &termsField{TextField: *document.NewTextFieldWithIndexingOptions(path, nil, v, opts), terms: []string{value}}
}

// newFieldNamesField indexes each distinct field name of a document as one term.
func newFieldNamesField(seen map[string]bool) *termsField {
	names := make([]string, 0, len(seen))
	for name := range seen {
		names = append(names, name)
	}
	return &termsField{TextField: *document.NewTextFieldWithIndexingOptions(FieldNames, nil, nil, index.IndexField), terms: names}
}

// Analyze implements document.Field: the terms are known already, and their frequencies
// are built only if asked for (VisitTokens gives the segment's inverter the terms without
// them).
func (f *termsField) Analyze() {}

// VisitTokens gives the segment's inverter (zap.TokenVisitor) each term, without a
// position: a keyword keeps none.
func (f *termsField) VisitTokens(visit func(term []byte, pos int)) bool {
	for _, t := range f.terms {
		visit(unsafe.Slice(unsafe.StringData(t), len(t)), -1)
	}
	return true
}

// frequencies builds the term frequencies. A term that occurs more than once (a value
// repeated in a keyword array) counts once per occurrence, as bleve counts same-named
// fields.
func (f *termsField) frequencies() {
	freqs := make(index.TokenFrequencies, len(f.terms))
	tfs := make([]index.TokenFreq, 0, len(f.terms))
	for _, t := range f.terms {
		tf := freqs[t]
		if tf == nil {
			// The term aliases the string's bytes (no copy per term): bleve only reads terms.
			tfs = append(tfs, index.TokenFreq{Term: unsafe.Slice(unsafe.StringData(t), len(t))})
			tf = &tfs[len(tfs)-1]
			freqs[t] = tf
		}
		if !f.Options().SkipFreqNorm() {
			tf.SetFrequency(tf.Frequency() + 1)
		}
	}
	f.freqs = freqs
}

// AnalyzedLength implements document.Field: one token per term.
func (f *termsField) AnalyzedLength() int { return len(f.terms) }

// AnalyzedTokenFrequencies implements document.Field.
func (f *termsField) AnalyzedTokenFrequencies() index.TokenFrequencies {
	if f.freqs == nil {
		f.frequencies()
	}
	return f.freqs
}
