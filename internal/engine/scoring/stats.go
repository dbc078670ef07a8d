package scoring

import (
	"fmt"
	"sort"
	"time"

	"github.com/blevesearch/bleve/v2/index/scorch"
	index "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"

	"github.com/aislehq/aisle/internal/engine/fieldstats"
	"github.com/aislehq/aisle/internal/engine/segcache"
)

// FieldStats are Lucene's CollectionStatistics of one field over one reader (an index, ES's
// shard): its segments' fieldstats.Totals summed. As in Lucene they count the documents a
// segment holds whether or not they were deleted since: an update or delete leaves its
// old document in the statistics until a merge drops it.
type FieldStats fieldstats.Totals

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

// computeStats gives a segment's statistics and norms of a field: stored in the segment
// by the engine's format (internal/engine/zap), or summed from every posting of the
// field for segments written before it stored them and of other formats.
func computeStats(seg segment.Segment, field string) (FieldStats, []byte, error) {
	d, err := seg.Dictionary(field)
	if err != nil {
		return FieldStats{}, nil, err
	}
	if stored, ok := d.(storedStats); ok {
		t, norms, found, err := stored.StoredFieldStats()
		if found || err != nil {
			return FieldStats(t), norms, err
		}
	}
	acc := &fieldstats.Acc{}
	acc.Reset(int(seg.Count()))
	if fast, ok := d.(freqNormVisitor); ok {
		err := fast.VisitFreqNorms(acc.Add)
		return FieldStats(acc.Totals), acc.Norms, err
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
		if err := addAll(acc, it); err != nil {
			return FieldStats{}, nil, err
		}
	}
	return FieldStats(acc.Totals), acc.Norms, nil
}

// storedStats is the engine's segment format's field statistics and norms, summed when
// the segment was written.
type storedStats interface {
	StoredFieldStats() (t fieldstats.Totals, norms []byte, found bool, err error)
}

// freqNormVisitor is the engine's segment format's one-pass read of a field's postings
// (internal/engine/zap): a field's norm bits are its length.
type freqNormVisitor interface {
	VisitFreqNorms(visit func(doc, freq, normBits uint64)) error
}

// addAll reads postings through the segment API (segments of other formats).
func addAll(acc *fieldstats.Acc, it segment.PostingsIterator) error {
	for p, err := it.Next(); p != nil || err != nil; p, err = it.Next() {
		if err != nil {
			return err
		}
		acc.Add(p.Number(), p.Frequency(), uint64(postingLength(p)))
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
