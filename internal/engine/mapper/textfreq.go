package mapper

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
	document.TextField // by value, as in termsField
	length             int
	freqs              index.TokenFrequencies
	// prev is the previous value of the same field in the document (nil for the first),
	// and lastPos the last position this value reached once analyzed: the values of a text
	// array follow one another PositionGap positions apart, as in ES.
	prev    *textField
	lastPos int
	// ascii: Analyze found plain ASCII text the fast tokenizer handles (lowercased in
	// place); the frequencies are then built only if asked for (VisitTokens gives the
	// segment's inverter the tokens without them), from offset, the position before the
	// first token
	ascii  bool
	offset int
}

// PositionGap is ES's position_increment_gap of text fields: a phrase matches across two
// values of an array only with a slop of more than this. The engine indexes no array
// positions (its segment format keeps positions only), so the gap is what keeps phrases
// within one value.
const PositionGap = 100

// newTextField is one value of a text field; prev is the previous value of the same field
// in the document, or nil.
func newTextField(path, value string, opts index.FieldIndexingOptions, a analysis.Analyzer, prev *textField) *textField {
	return &textField{TextField: *document.NewTextFieldCustom(path, nil, []byte(value), opts, a), prev: prev}
}

// Analyze implements document.Field, as TextField.Analyze does (the value is never stored,
// so the analyzer may work on it in place). bleve analyzes the fields of a document one
// after another in the order they were added, so prev is analyzed already.
func (f *textField) Analyze() {
	offset := 0
	if f.prev != nil {
		offset = f.prev.lastPos + PositionGap
	}
	f.lastPos, f.offset = offset, offset
	if isStandardLowercase(f.Analyzer()) {
		if n, ok := asciiLowercase(f.Value()); ok {
			f.length, f.ascii, f.lastPos, f.freqs = n, true, offset+n, nil
			return
		}
	}
	tokens := f.Analyzer().Analyze(f.Value())
	f.length = len(tokens)
	f.freqs = tokenFrequency(tokens, offset, f.Options())
	for _, tok := range tokens {
		f.lastPos = max(f.lastPos, offset+tok.Position)
	}
}

// AnalyzedLength implements document.Field.
func (f *textField) AnalyzedLength() int { return f.length }

// AnalyzedTokenFrequencies implements document.Field.
func (f *textField) AnalyzedTokenFrequencies() index.TokenFrequencies {
	if f.ascii && f.freqs == nil {
		f.freqs = lowercaseFrequencies(f.Value(), f.length, f.offset, f.Options())
	}
	return f.freqs
}

// VisitTokens gives the segment's inverter (zap.TokenVisitor) the tokens of ASCII text
// in order, with their positions if the field keeps them, without building the map of
// frequencies.
func (f *textField) VisitTokens(visit func(term []byte, pos int)) bool {
	if !f.ascii {
		return false
	}
	value, offset, positions := f.Value(), f.offset, f.Options().IncludeTermVectors()
	eachWord(value, func(k, start, end int) {
		pos := -1
		if positions {
			pos = offset + k + 1
		}
		visit(value[start:end], pos)
	})
	return true
}

// tokenFrequency returns what analysis.TokenFrequency returns for the same tokens, their
// positions moved by offset. The map keys alias the tokens' term bytes, which nothing
// modifies after analysis (bleve's own TokenFreq.Term aliases them too).
func tokenFrequency(tokens analysis.TokenStream, offset int, opts index.FieldIndexingOptions) index.TokenFrequencies {
	b := newFreqBuilder(len(tokens), opts)
	for i, tok := range tokens {
		b.add(i, tok.Term)
	}
	if opts.IncludeTermVectors() {
		b.locate(func(at func(k, start, end, pos int)) {
			for i, tok := range tokens {
				at(i, tok.Start, tok.End, offset+tok.Position)
			}
		})
	}
	return b.freqs
}

// freqBuilder builds the frequencies of n tokens in slabs: the map points into one slab
// of TokenFreq, and every term's Locations is a slice of one pointer array.
type freqBuilder struct {
	opts   index.FieldIndexingOptions
	freqs  index.TokenFrequencies
	tfs    []index.TokenFreq // never grows: pointers into it stay valid
	ids    []int32           // the term of each token, as an index into tfs
	counts []int32           // the tokens of each term
}

func newFreqBuilder(n int, opts index.FieldIndexingOptions) *freqBuilder {
	return &freqBuilder{opts: opts, freqs: make(index.TokenFrequencies, n), tfs: make([]index.TokenFreq, 0, n),
		ids: make([]int32, n), counts: make([]int32, 0, n)}
}

// add counts token k, whose term is term.
func (b *freqBuilder) add(k int, term []byte) {
	key := unsafe.String(unsafe.SliceData(term), len(term))
	tf, ok := b.freqs[key]
	if !ok {
		b.tfs = append(b.tfs, index.TokenFreq{Term: term})
		b.counts = append(b.counts, 0)
		tf = &b.tfs[len(b.tfs)-1]
		b.freqs[key] = tf
	}
	id := slabIndex(b.tfs, tf)
	b.ids[k] = id
	b.counts[id]++
	if !b.opts.SkipFreqNorm() {
		tf.SetFrequency(tf.Frequency() + 1)
	}
}

// slabIndex is the index of tf in tfs, which holds it: a map of pointers into the slab
// saves a second map from terms to indices.
func slabIndex(tfs []index.TokenFreq, tf *index.TokenFreq) int32 {
	return int32((uintptr(unsafe.Pointer(tf)) - uintptr(unsafe.Pointer(&tfs[0]))) / unsafe.Sizeof(tfs[0]))
}

// locate gives each term its token locations; each calls at for every token, in order,
// with its index, byte offsets and position.
func (b *freqBuilder) locate(each func(at func(k, start, end, pos int))) {
	locs := make([]index.TokenLocation, len(b.ids))
	ptrs := make([]*index.TokenLocation, len(b.ids))
	off := 0
	for i := range b.tfs {
		n := int(b.counts[i])
		b.tfs[i].Locations = ptrs[off : off : off+n]
		off += n
	}
	each(func(k, start, end, pos int) {
		locs[k] = index.TokenLocation{Start: start, End: end, Position: pos}
		tf := &b.tfs[b.ids[k]]
		tf.Locations = append(tf.Locations, &locs[k])
	})
}
