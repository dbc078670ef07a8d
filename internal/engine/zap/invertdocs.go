package zap

import (
	"encoding/binary"
	"errors"
	"math"
	"unsafe"

	"github.com/RoaringBitmap/roaring/v2"
	index "github.com/blevesearch/bleve_index_api"
)

// This file is the engine's inverter for new segments (see FORK.md and invert.go):
// process takes each document's fields as they arrive, writeTerms writes a field's
// dictionary and postings from what process kept.

var errSegmentTooLarge = errors.New("aisle-zap: a new segment holds more than 2^32 terms, postings or positions")

// TokenVisitor is a field whose tokens the inverter reads in order instead of the map
// of term frequencies bleve's fields build per document: the engine's text, keyword,
// number and date fields (internal/engine/mapper). VisitTokens calls visit with each
// token's term (read only during the call) and position, or a negative position when the
// field keeps none; it reports false when it cannot, and the inverter then reads
// AnalyzedTokenFrequencies.
type TokenVisitor interface {
	VisitTokens(visit func(term []byte, pos int)) bool
}

// process inverts one field of document docNum, or with fieldID math.MaxUint16 ends
// the document. Fields of one name in a document (an array's values) share their
// postings, their frequencies summed, positions in order and lengths summed, as zapx
// merges them.
func (io *invertedIndexOpaque) process(field index.Field, fieldID uint16, docNum uint32) {
	if !io.init {
		io.initInverter()
	}
	if fieldID == math.MaxUint16 {
		io.endDocument()
		return
	}
	io.docFields = append(io.docFields, fieldID)
	io.reusableFieldLens[fieldID] += field.AnalyzedLength()
	countFreq := !field.Options().SkipFreqNorm()
	if tv, ok := field.(TokenVisitor); ok && tv.VisitTokens(func(term []byte, pos int) {
		i := io.inv.posting(fieldID, term, docNum)
		if countFreq {
			io.inv.posts[i].freq++
		}
		if pos >= 0 {
			io.inv.occur(i, pos)
		}
	}) {
		return
	}
	for term, tf := range field.AnalyzedTokenFrequencies() {
		i := io.inv.posting(fieldID, unsafe.Slice(unsafe.StringData(term), len(term)), docNum)
		io.inv.posts[i].freq += uint32(tf.Frequency())
		for _, loc := range tf.Locations {
			if len(loc.ArrayPositions) > 0 {
				io.fail(errLocations)
			}
			io.inv.occur(i, loc.Position)
		}
	}
}

func (io *invertedIndexOpaque) fail(err error) {
	if io.err == nil {
		io.err = err
	}
}

func (io *invertedIndexOpaque) initInverter() {
	n := len(io.FieldsInv)
	io.inv.reset(n)
	io.inv.reserve(tokenCounts(io.results))
	io.reusableFieldLens = growZeroed(io.reusableFieldLens, n)
	if io.extraDocValues == nil {
		io.extraDocValues = map[int]map[uint16][][]byte{}
	}
	io.init = true
}

// tokenCounts bounds a new segment's postings and positions by its documents' analysed
// field lengths: a field of n tokens makes at most n postings, and n positions if it
// keeps them.
func tokenCounts(docs []index.Document) (tokens, positioned int) {
	for _, d := range docs {
		d.VisitFields(func(f index.Field) {
			n := f.AnalyzedLength()
			tokens += n
			if f.Options().IncludeTermVectors() {
				positioned += n
			}
		})
	}
	return tokens, positioned
}

// growZeroed is s with n zero values.
func growZeroed[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

func (io *invertedIndexOpaque) endDocument() {
	io.inv.endDocument(io.reusableFieldLens)
	for _, fid := range io.docFields {
		io.reusableFieldLens[fid] = 0
	}
	io.docFields = io.docFields[:0]
	if io.inv.overflow {
		io.fail(errSegmentTooLarge)
	}
}

// keepShape keeps the encoded shape of a geo shape field of document docNum for its doc
// values: the term dictionary does not hold it.
func (io *invertedIndexOpaque) keepShape(field index.Field, fieldID uint16, docNum uint32) {
	f, ok := field.(index.GeoShapeField)
	if !ok {
		return
	}
	if io.extraDocValues == nil {
		io.extraDocValues = map[int]map[uint16][][]byte{}
	}
	doc := int(docNum)
	if _, exists := io.extraDocValues[doc]; !exists {
		io.extraDocValues[doc] = make(map[uint16][][]byte)
	}
	io.extraDocValues[doc][fieldID] = append(io.extraDocValues[doc][fieldID], f.EncodedShape())
}

// resizedDocTerms is docTerms with n empty entries, keeping their capacity.
func resizedDocTerms(docTerms [][]byte, n int) [][]byte {
	if cap(docTerms) < n {
		return make([][]byte, n)
	}
	docTerms = docTerms[:n]
	for i := range docTerms {
		docTerms[i] = docTerms[i][:0]
	}
	return docTerms
}

// writeTerms writes field fid's postings lists in term order, counts them in the field's
// statistics and adds the terms to the dictionary builder, and to docTerms (each
// document's terms) when the field has doc values.
func (io *invertedIndexOpaque) writeTerms(fid int, docValues bool, docTerms [][]byte,
	tfEncoder, locEncoder *chunkedIntCoder, w *FileWriter) error {
	numDocs := uint64(len(io.results))
	for _, pid := range io.inv.sortedTerms(fid) {
		term, postings := io.inv.term(pid), io.inv.postingsOf(pid)
		io.addStats(postings)
		if docValues {
			for i := range postings {
				doc := postings[i].doc
				docTerms[doc] = append(append(docTerms[doc], term...), index.DocValueTermSeparator)
			}
		}
		if docNum, normBits, ok := oneHit(postings); ok {
			if err := io.builder.Insert(term, FSTValEncode1Hit(docNum, normBits)); err != nil {
				return err
			}
			continue
		}
		chunkSize, err := getChunkSize(io.chunkMode, uint64(len(postings)), numDocs)
		if err != nil {
			return err
		}
		tfEncoder.SetChunkSize(chunkSize, numDocs-1)
		locEncoder.SetChunkSize(chunkSize, numDocs-1)
		if err := io.writePostingsList(term, postings, tfEncoder, locEncoder, w); err != nil {
			return err
		}
	}
	return nil
}

// addStats counts a term's postings in its field's statistics and norms, as a reader
// of the written postings would see them: a posting without frequency has no norm.
func (io *invertedIndexOpaque) addStats(postings []inverted) {
	for i := range postings {
		p := &postings[i]
		norm := uint64(p.norm)
		if p.freq == 0 {
			norm = 0
		}
		io.stats.Add(uint64(p.doc), uint64(p.freq), norm)
	}
}

// oneHit reports whether a postings list can be written as a 1-hit value in the term
// dictionary, as merges write them: one document, frequency 1, no positions, a norm that
// fits (the field's length, never 0). Keyword, numeric and date terms unique to a
// document (ids, SKUs, prices, timestamps) are most of a catalog's terms; written in
// full, each took a chunk of frequencies, an empty chunk of positions and a bitmap.
func oneHit(postings []inverted) (docNum, normBits uint64, ok bool) {
	if len(postings) != 1 {
		return 0, 0, false
	}
	p := &postings[0]
	docNum, normBits = uint64(p.doc), uint64(p.norm)
	ok = p.freq == 1 && p.nlocs == 0 && under32Bits(docNum) && normBits != 0 && normBits <= mask31Bits
	return docNum, normBits, ok
}

// writePostingsList writes one term's frequencies, norms, positions and bitmap.
func (io *invertedIndexOpaque) writePostingsList(term []byte, postings []inverted,
	tfEncoder, locEncoder *chunkedIntCoder, w *FileWriter) error {
	docs := io.docNums[:0]
	for i := range postings {
		p := &postings[i]
		doc := uint64(p.doc)
		docs = append(docs, p.doc)
		if p.nlocs > 0 && p.nlocs != p.freq {
			return errLocations // one position per occurrence (see positions.go)
		}
		var err error
		if p.freq > 0 {
			err = tfEncoder.Add(doc, encodeFreqHasLocs(uint64(p.freq), p.nlocs > 0), uint64(p.norm))
		} else { // frequencies disabled: no norm either
			err = tfEncoder.Add(doc, encodeFreqHasLocs(uint64(p.freq), p.nlocs > 0))
		}
		if err != nil {
			return err
		}
		for _, pos := range io.inv.positions(p) { // positions only (see positions.go)
			if err := locEncoder.Add(doc, uint64(pos)); err != nil {
				return err
			}
		}
	}
	io.docNums = docs
	tfEncoder.Close()
	locEncoder.Close()
	io.incrementBytesWritten(locEncoder.getBytesWritten())
	io.incrementBytesWritten(tfEncoder.getBytesWritten())

	if io.bitmap == nil {
		io.bitmap = roaring.New()
	}
	io.bitmap.Clear()
	io.bitmap.AddMany(docs)
	postingsOffset, err := writePostings(io.bitmap, tfEncoder, locEncoder, nil, w, io.grabBuf(binary.MaxVarintLen64))
	if err != nil {
		return err
	}
	if postingsOffset > 0 {
		if err := io.builder.Insert(term, postingsOffset); err != nil {
			return err
		}
	}
	tfEncoder.Reset()
	locEncoder.Reset()
	return nil
}
