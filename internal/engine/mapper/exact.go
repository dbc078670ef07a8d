package mapper

import (
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/numeric"
	index "github.com/blevesearch/bleve_index_api"
)

// exactField indexes a number or date at full precision only. bleve adds fifteen
// coarser-precision terms per value for its range searcher; they were a third of all
// terms of a typical document and as much again in doc values. Range queries read
// per-segment columns of the full-precision terms instead (query.NumericRange), and
// sorting, aggregations and term queries only ever used the full-precision term.
type exactField struct {
	document.Field
	term  numeric.PrefixCoded
	typ   analysis.TokenType
	freqs index.TokenFrequencies
}

func exactNumber(f *document.NumericField) *exactField {
	return &exactField{Field: f, term: numeric.PrefixCoded(f.Value()), typ: analysis.Numeric}
}

func exactDate(f *document.DateTimeField) *exactField {
	t, _, _ := f.DateTime()
	term, _ := numeric.NewPrefixCodedInt64(t.UnixNano(), 0)
	return &exactField{Field: f, term: term, typ: analysis.DateTime}
}

// Analyze emits the one full-precision token bleve's own Analyze starts with.
func (f *exactField) Analyze() {
	tok := &analysis.Token{Start: 0, End: len(f.term), Term: f.term, Position: 1, Type: f.typ}
	f.freqs = analysis.TokenFrequency(analysis.TokenStream{tok}, f.ArrayPositions(), f.Options())
}

// AnalyzedLength implements document.Field.
func (f *exactField) AnalyzedLength() int { return 1 }

// AnalyzedTokenFrequencies implements document.Field.
func (f *exactField) AnalyzedTokenFrequencies() index.TokenFrequencies { return f.freqs }
