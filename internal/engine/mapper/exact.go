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

// Analyze implements document.Field: the one full-precision token bleve's own Analyze
// starts with is known already, and its frequencies are built only if asked for
// (VisitTokens gives the segment's inverter the token without them).
func (f *exactField) Analyze() {}

// VisitTokens gives the segment's inverter (zap.TokenVisitor) the one token, at position
// 1 if the field keeps positions; a field with array positions, which the inverter
// refuses, goes through its frequencies.
func (f *exactField) VisitTokens(visit func(term []byte, pos int)) bool {
	if len(f.ArrayPositions()) > 0 {
		return false
	}
	pos := -1
	if f.Options().IncludeTermVectors() {
		pos = 1
	}
	visit(f.term, pos)
	return true
}

// AnalyzedLength implements document.Field.
func (f *exactField) AnalyzedLength() int { return 1 }

// AnalyzedTokenFrequencies implements document.Field.
func (f *exactField) AnalyzedTokenFrequencies() index.TokenFrequencies {
	if f.freqs == nil {
		tok := &analysis.Token{Start: 0, End: len(f.term), Term: f.term, Position: 1, Type: f.typ}
		f.freqs = analysis.TokenFrequency(analysis.TokenStream{tok}, f.ArrayPositions(), f.Options())
	}
	return f.freqs
}
