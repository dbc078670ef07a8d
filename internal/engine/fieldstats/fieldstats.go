// Package fieldstats holds Lucene's statistics of one field over one segment and the
// field's norms: what BM25 needs besides a term's postings. The segment format
// (internal/engine/zap) sums them while it writes a segment's postings, at build and at
// merge, and stores them beside the field's dictionary; scoring reads them from there,
// or sums them from the postings of segments written before they were stored. Both sum
// with Acc, so the two can never disagree.
package fieldstats

// Totals are Lucene's CollectionStatistics of one field over one segment. As in Lucene
// they count every document the segment holds, deleted or not.
type Totals struct {
	DocCount         int64 // documents with a term in the field
	SumTotalTermFreq int64 // occurrences of terms
	SumDocFreq       int64 // (document, term) pairs
}

// Acc sums a field's postings, in any order, into its totals and its norms: one byte per
// document of the segment, LengthByte of the field's length, 0 for a document without a
// term in the field (a field of length 0 that has a term counts as length 1).
type Acc struct {
	Totals
	Norms []byte
}

// Reset readies the accumulator for a field of a segment of numDocs documents, reusing
// its norms.
func (a *Acc) Reset(numDocs int) {
	a.Totals = Totals{}
	if cap(a.Norms) < numDocs {
		a.Norms = make([]byte, numDocs)
		return
	}
	a.Norms = a.Norms[:numDocs]
	clear(a.Norms)
}

// Sum counts one posting in the totals only, its document's norm set apart (SetNorm).
func (a *Acc) Sum(freq uint64) {
	a.SumTotalTermFreq += int64(freq)
	a.SumDocFreq++
}

// SetNorm gives document doc, which has a term in the field, its norm: a merge copies
// the norms of the documents it keeps rather than reading them from every posting.
func (a *Acc) SetNorm(doc uint64, norm byte) {
	a.Norms[doc] = norm
	a.DocCount++
}

// Add counts one posting: document doc holds a term freq times in a field of length
// tokens. Frequency 0 is a field indexed without frequencies.
func (a *Acc) Add(doc, freq, length uint64) {
	if a.Norms[doc] == 0 {
		a.DocCount++
		a.Norms[doc] = LengthByte(int(max(length, 1)))
	}
	a.Sum(freq)
}
