package scoring

import (
	"fmt"
	"sort"
	"time"

	"github.com/blevesearch/bleve/v2/index/scorch"
	index "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"

	"github.com/aislehq/aisle/internal/engine/segcache"
)

// FieldStats are Lucene's CollectionStatistics of one field over one reader (an index, ES's
// shard). As in Lucene they count the documents a segment holds whether or not they were
// deleted since: an update or delete leaves its old document in the statistics until a
// merge drops it.
type FieldStats struct {
	DocCount         int64 // documents with a term in the field
	SumTotalTermFreq int64 // occurrences of terms
	SumDocFreq       int64 // (document, term) pairs
}

// AvgLength is BM25Similarity.avgFieldLength. A field indexed without frequencies
// (keyword, boolean) has Lucene's sumTotalTermFreq equal to its sumDocFreq.
func (s FieldStats) AvgLength(docsOnly bool) float32 {
	sum := s.SumTotalTermFreq
	if docsOnly {
		sum = s.SumDocFreq
	}
	if s.DocCount == 0 {
		return 1
	}
	return float32(float64(sum) / float64(s.DocCount))
}

func (s *FieldStats) add(o FieldStats) {
	s.DocCount += o.DocCount
	s.SumTotalTermFreq += o.SumTotalTermFreq
	s.SumDocFreq += o.SumDocFreq
}

// Reader gives the statistics of one index reader's segments.
type Reader struct {
	segs    []segment.Segment
	offsets []uint64 // of each segment's first document in the reader's numbering
}

// ReaderOf returns the statistics reader of a scorch reader.
func ReaderOf(r index.IndexReader) (*Reader, error) {
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return nil, fmt.Errorf("scoring needs a scorch index, got %T", r)
	}
	ss := snap.Segments()
	rd := &Reader{segs: make([]segment.Segment, len(ss)), offsets: make([]uint64, len(ss))}
	var next uint64
	for i, s := range ss {
		rd.segs[i], rd.offsets[i] = s.Segment(), next
		next += s.Segment().Count()
	}
	return rd, nil
}

// FieldStats sums the field's statistics over the reader's segments; each segment's are
// computed once and cached while the segment is in use.
func (r *Reader) FieldStats(field string) (FieldStats, error) {
	var total FieldStats
	now := time.Now()
	for _, seg := range r.segs {
		e, err := statsOf(seg, field, now)
		if err != nil {
			return FieldStats{}, err
		}
		total.add(e.st)
	}
	return total, nil
}

// Norms returns, per segment, the norm (LengthByte) of each document's field: Lucene's
// norms, which bleve keeps only beside each posting.
func (r *Reader) Norms(field string) ([][]byte, error) {
	out := make([][]byte, len(r.segs))
	now := time.Now()
	for i, seg := range r.segs {
		e, err := statsOf(seg, field, now)
		if err != nil {
			return nil, err
		}
		out[i] = e.norms
	}
	return out, nil
}

// Locate maps a document of the reader to its segment and number in the segment; hint
// is the segment of the previous lookup.
func (r *Reader) Locate(id uint64, hint int) (seg int, local uint64) {
	if hint >= 0 && hint < len(r.offsets) && id >= r.offsets[hint] && (hint+1 == len(r.offsets) || id < r.offsets[hint+1]) {
		return hint, id - r.offsets[hint]
	}
	seg = sort.Search(len(r.offsets), func(i int) bool { return r.offsets[i] > id }) - 1
	return seg, id - r.offsets[seg]
}

// DocFreq is the number of documents of the reader's segments with term in field,
// deleted documents included, as Lucene's docFreq counts them.
func (r *Reader) DocFreq(field string, term []byte) (int64, error) {
	_, n, err := r.Postings(field, term)
	return n, err
}

// Postings returns the term's postings list in each of the reader's segments, and its
// DocFreq.
func (r *Reader) Postings(field string, term []byte) ([]segment.PostingsList, int64, error) {
	var n int64
	lists := make([]segment.PostingsList, len(r.segs))
	for i, seg := range r.segs {
		d, err := seg.Dictionary(field)
		if err != nil {
			return nil, 0, err
		}
		if lists[i], err = d.PostingsList(term, nil, nil); err != nil {
			return nil, 0, err
		}
		n += int64(lists[i].Count())
	}
	return lists, n, nil
}

// statsIdle is how long a segment's statistics may go unused before they are dropped:
// segments merged away are never asked for again.
const statsIdle = 10 * time.Minute

type statsKey struct {
	seg   segment.Segment
	field string
}

// segmentStats are one segment's statistics of a field, and its norms.
type segmentStats struct {
	st    FieldStats
	norms []byte // per document of the segment
}

var statsCache = segcache.New[statsKey, *segmentStats](statsIdle)

func statsOf(seg segment.Segment, field string, now time.Time) (*segmentStats, error) {
	return statsCache.Get(statsKey{seg: seg, field: field}, now, func() (*segmentStats, error) {
		st, norms, err := computeStats(seg, field)
		return &segmentStats{st: st, norms: norms}, err
	})
}

// computeStats reads every posting of the field in one segment: Lucene keeps these sums
// in its term dictionary and the norms in a column, bleve keeps a document's field
// length beside each of its postings.
func computeStats(seg segment.Segment, field string) (FieldStats, []byte, error) {
	d, err := seg.Dictionary(field)
	if err != nil {
		return FieldStats{}, nil, err
	}
	acc := &statsAcc{norms: make([]byte, seg.Count())}
	if fast, ok := d.(freqNormVisitor); ok {
		err := fast.VisitFreqNorms(acc.add)
		return acc.st, acc.norms, err
	}
	var pl segment.PostingsList
	var it segment.PostingsIterator
	terms := d.AutomatonIterator(nil, nil, nil)
	for e, err := terms.Next(); e != nil || err != nil; e, err = terms.Next() {
		if err != nil {
			return FieldStats{}, nil, err
		}
		if pl, err = d.PostingsList([]byte(e.Term), nil, pl); err != nil {
			return FieldStats{}, nil, err
		}
		it = pl.Iterator(true, true, false, it)
		if err := acc.addAll(it); err != nil {
			return FieldStats{}, nil, err
		}
	}
	return acc.st, acc.norms, nil
}

// freqNormVisitor is the engine's segment format's one-pass read of a field's postings
// (internal/engine/zap): a field's norm bits are its length.
type freqNormVisitor interface {
	VisitFreqNorms(visit func(doc, freq, normBits uint64)) error
}

// statsAcc sums a field's postings into its statistics and norms.
type statsAcc struct {
	st    FieldStats
	norms []byte
}

func (a *statsAcc) add(doc, freq, length uint64) {
	if a.norms[doc] == 0 {
		a.st.DocCount++
		a.norms[doc] = LengthByte(max(int(length), 1))
	}
	a.st.SumTotalTermFreq += int64(freq)
	a.st.SumDocFreq++
}

// addAll reads postings through the segment API (segments of other formats).
func (a *statsAcc) addAll(it segment.PostingsIterator) error {
	for p, err := it.Next(); p != nil || err != nil; p, err = it.Next() {
		if err != nil {
			return err
		}
		a.add(p.Number(), p.Frequency(), uint64(postingLength(p)))
	}
	return nil
}

// rawNorm is a posting whose norm is the field's length itself (zapx stores it so, and
// Norm returns 1/sqrt of it).
type rawNorm interface{ NormUint64() uint64 }

func postingLength(p segment.Posting) int {
	if rn, ok := p.(rawNorm); ok {
		return int(rn.NormUint64())
	}
	return lengthOf(p.Norm())
}
