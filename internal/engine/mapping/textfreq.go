package mapping

import (
	"unsafe"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	index "github.com/blevesearch/bleve_index_api"
)

// textField is a text field whose term frequencies are built with a few slab allocations
// per field instead of bleve's three per distinct term (the map key, the TokenFreq and
// its Locations slice); for a description of ~80 distinct words that was most of
// analysis's allocations and garbage.
type textField struct {
	*document.TextField
	length int
	freqs  index.TokenFrequencies
}

func newTextField(path, value string, opts index.FieldIndexingOptions, a analysis.Analyzer) *textField {
	return &textField{TextField: document.NewTextFieldCustom(path, nil, []byte(value), opts, a)}
}

// Analyze implements document.Field, as TextField.Analyze does (the value is never stored,
// so the analyzer may work on it in place).
func (f *textField) Analyze() {
	tokens := f.Analyzer().Analyze(f.Value())
	f.length = len(tokens)
	f.freqs = tokenFrequency(tokens, f.ArrayPositions(), f.Options())
}

// AnalyzedLength implements document.Field.
func (f *textField) AnalyzedLength() int { return f.length }

// AnalyzedTokenFrequencies implements document.Field.
func (f *textField) AnalyzedTokenFrequencies() index.TokenFrequencies { return f.freqs }

// tokenFrequency returns what analysis.TokenFrequency returns for the same tokens. The map
// keys alias the tokens' term bytes, which nothing modifies after analysis (bleve's own
// TokenFreq.Term aliases them too).
func tokenFrequency(tokens analysis.TokenStream, arrayPositions []uint64, opts index.FieldIndexingOptions) index.TokenFrequencies {
	freqs := make(index.TokenFrequencies, len(tokens))
	tfs := make([]index.TokenFreq, 0, len(tokens)) // never grows: pointers into it stay valid
	ids := make([]int32, len(tokens))
	counts := make([]int32, 0, len(tokens))
	for i, tok := range tokens {
		key := unsafe.String(unsafe.SliceData(tok.Term), len(tok.Term))
		tf, ok := freqs[key]
		if !ok {
			tfs = append(tfs, index.TokenFreq{Term: tok.Term})
			counts = append(counts, 0)
			tf = &tfs[len(tfs)-1]
			freqs[key] = tf
		}
		id := slabIndex(tfs, tf)
		ids[i] = id
		counts[id]++
		if !opts.SkipFreqNorm() {
			tf.SetFrequency(tf.Frequency() + 1)
		}
	}
	if opts.IncludeTermVectors() {
		addLocations(tokens, arrayPositions, tfs, ids, counts)
	}
	return freqs
}

// slabIndex is the index of tf in tfs, which holds it: a map of pointers into the slab
// saves a second map from terms to indices.
func slabIndex(tfs []index.TokenFreq, tf *index.TokenFreq) int32 {
	return int32((uintptr(unsafe.Pointer(tf)) - uintptr(unsafe.Pointer(&tfs[0]))) / unsafe.Sizeof(tfs[0]))
}

// addLocations gives each term its token locations, carved out of two slabs: every term's
// Locations is a slice of one pointer array, sized by the counts of the first pass.
func addLocations(tokens analysis.TokenStream, arrayPositions []uint64, tfs []index.TokenFreq, ids, counts []int32) {
	locs := make([]index.TokenLocation, len(tokens))
	ptrs := make([]*index.TokenLocation, len(tokens))
	off := 0
	for i := range tfs {
		n := int(counts[i])
		tfs[i].Locations = ptrs[off : off : off+n]
		off += n
	}
	for i, tok := range tokens {
		locs[i] = index.TokenLocation{ArrayPositions: arrayPositions, Start: tok.Start, End: tok.End, Position: tok.Position}
		tf := &tfs[ids[i]]
		tf.Locations = append(tf.Locations, &locs[i])
	}
}
