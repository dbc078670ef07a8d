package scoring

import (
	"context"
	"math"

	"github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"
)

// Term describes how a field's terms score: text fields keep frequencies and length
// norms; keyword and boolean fields keep neither, so every match counts once, with the
// norm Lucene reads for a field without norms.
type Term struct {
	Field string
	Term  []byte
	Text  bool
}

// TermStats are the statistics a term's BM25 weight needs.
type TermStats struct {
	DocFreq int64
	Field   FieldStats
}

// Stats reads the term's statistics from a reader.
func (t Term) Stats(r *Reader) (TermStats, error) {
	df, err := r.DocFreq(t.Field, t.Term)
	if err != nil {
		return TermStats{}, err
	}
	fs, err := r.FieldStats(t.Field)
	return TermStats{DocFreq: df, Field: fs}, err
}

// Weight is the term's BM25 scorer for these statistics and a boost: the statistics of
// a fuzzy expansion are blended, so they are the caller's to give.
func (t Term) Weight(st TermStats, boost float32) *BM25 {
	return NewBM25(boost, Idf(st.DocFreq, st.Field.DocCount), st.Field.AvgLength(!t.Text))
}

// TermSearcher matches the documents holding a term and scores them with BM25 (or not
// at all, when bm25 is nil).
type TermSearcher struct {
	reader index.TermFieldReader
	tfd    index.TermFieldDoc
	bm25   *BM25
	text   bool
	norms  docNorms // of a text field that scores
}

// NewTermSearcher opens the term's postings; bm25 nil skips scoring.
func NewTermSearcher(ctx context.Context, r index.IndexReader, t Term, bm25 *BM25) (*TermSearcher, error) {
	scores := bm25 != nil
	s := &TermSearcher{bm25: bm25, text: t.Text}
	if scores && t.Text {
		// The norms come from the field's per-segment norms (cached with its statistics),
		// not from each posting: bleve turns a posting's length into 1/sqrt(length),
		// which would have to be turned back.
		rd, err := ReaderOf(r)
		if err != nil {
			return nil, err
		}
		if s.norms.bySegment, err = rd.Norms(t.Field); err != nil {
			return nil, err
		}
		s.norms.rd = rd
	}
	reader, err := r.TermFieldReader(ctx, t.Term, t.Field, scores && t.Text, false, false)
	if err != nil {
		return nil, err
	}
	s.reader = reader
	return s, nil
}

// docNorms finds a document's norm among its segment's.
type docNorms struct {
	rd        *Reader
	bySegment [][]byte
	hint      int // the segment of the last document
}

func (n *docNorms) of(id index.IndexInternalID) byte {
	seg, local := n.rd.Locate(id.Value(), n.hint)
	n.hint = seg
	return n.bySegment[seg][local]
}

// Next implements search.Searcher.
func (s *TermSearcher) Next(ctx *search.SearchContext) (*search.DocumentMatch, error) {
	tfd, err := s.reader.Next(s.tfd.Reset())
	if err != nil || tfd == nil {
		return nil, err
	}
	return s.match(ctx, tfd), nil
}

// Advance implements search.Searcher.
func (s *TermSearcher) Advance(ctx *search.SearchContext, id index.IndexInternalID) (*search.DocumentMatch, error) {
	tfd, err := s.reader.Advance(id, s.tfd.Reset())
	if err != nil || tfd == nil {
		return nil, err
	}
	return s.match(ctx, tfd), nil
}

func (s *TermSearcher) match(ctx *search.SearchContext, tfd *index.TermFieldDoc) *search.DocumentMatch {
	dm := ctx.DocumentMatchPool.Get()
	dm.IndexInternalID = index.NewIndexInternalIDFrom(dm.IndexInternalID, tfd.ID)
	if s.bm25 == nil {
		return dm
	}
	freq, norm := float32(1), byte(1)
	if s.text {
		freq, norm = float32(tfd.Freq), s.norms.of(tfd.ID)
	}
	dm.Score = float64(s.bm25.Score(freq, norm))
	return dm
}

// lengthOf recovers a field's length from bleve's norm, float32(1/sqrt(length)): exact
// for any length below 2^22.
func lengthOf(norm float64) int {
	if norm <= 0 {
		return 0
	}
	return int(math.Round(1 / (norm * norm)))
}

// Close implements search.Searcher.
func (s *TermSearcher) Close() error { return s.reader.Close() }

// Weight implements search.Searcher; query norms are not Lucene 9's.
func (s *TermSearcher) Weight() float64 { return 1 }

// SetQueryNorm implements search.Searcher: ignored (see Weight).
func (s *TermSearcher) SetQueryNorm(float64) {}

// Size implements search.Searcher.
func (s *TermSearcher) Size() int { return 64 + s.reader.Size() }

// Count implements search.Searcher.
func (s *TermSearcher) Count() uint64 { return s.reader.Count() }

// Min implements search.Searcher.
func (s *TermSearcher) Min() int { return 0 }

// DocumentMatchPoolSize implements search.Searcher.
func (s *TermSearcher) DocumentMatchPoolSize() int { return 1 }
