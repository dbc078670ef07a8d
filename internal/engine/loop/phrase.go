package loop

import (
	"math/bits"
	"slices"

	segapi "github.com/blevesearch/scorch_segment_api/v2"

	"github.com/aislehq/aisle/internal/engine/scoring"
	"github.com/aislehq/aisle/internal/engine/zap"
)

// Phrase matches the documents holding a phrase (match_phrase, and each field of
// multi_match's phrase type). In a window its candidates are the documents holding a
// term of every position, read from Blocks as a Term reads them; only those have their
// positions read, and scoring.PhraseMatcher, scoring.PhraseSearcher's matching, tells
// whether and how often the phrase stands there.
type Phrase struct {
	// Lists are the postings lists of each position's terms, one per segment of the
	// reader: Lists[position][term][segment].
	Lists     [][][]segapi.PostingsList
	Positions []scoring.PhrasePosition
	Slop      int
	// BM25 scores a match with the phrase's frequency there and the document's norm of
	// the field (Norms, per segment), as dsl's phraseScorer does; nil for a filter's
	// phrase, which only matches (score 0).
	BM25  *scoring.BM25
	Norms [][]byte
}

type phraseEval struct {
	s     *segment
	cand  evaluator          // the documents holding a term of every position
	terms [][]*termPositions // each position's terms; nil where the segment has none
	match *scoring.PhraseMatcher
	bm25  *scoring.BM25
	norms []byte
	doc   uint32                       // the document whose positions fill reads
	fill  func(i int, buf []int) []int // e.positions, made once
}

func (p *Phrase) open(s *segment) evaluator {
	e := &phraseEval{s: s, terms: make([][]*termPositions, len(p.Lists)), bm25: p.BM25}
	cand := make([]Node, len(p.Lists))
	for i, terms := range p.Lists {
		var held []Node
		for _, lists := range terms {
			tp := openPositions(lists[s.index])
			e.terms[i] = append(e.terms[i], tp)
			if tp != nil {
				held = append(held, &Term{Lists: lists})
			}
		}
		if len(held) == 0 {
			return nothing{} // no term of this position in the segment
		}
		cand[i] = anyOf(held)
	}
	e.cand = (&Conjunction{Subs: cand}).open(s)
	e.match = scoring.NewPhraseMatcher(p.Positions, p.Slop, p.BM25 != nil)
	if p.BM25 != nil {
		e.norms = p.Norms[s.index]
	}
	e.fill = e.positions
	return e
}

// anyOf matches the documents of any of subs.
func anyOf(subs []Node) Node {
	if len(subs) == 1 {
		return subs[0]
	}
	return &Disjunction{Subs: subs, Min: 1}
}

// eval keeps the candidates where the phrase stands, scored with its frequency.
func (e *phraseEval) eval(base uint32, b *block) {
	e.cand.eval(base, b)
	for w, word := range b.bits {
		for word != 0 {
			t := bits.TrailingZeros64(word)
			word &= word - 1
			j := w*64 + t
			e.doc = base + uint32(j)
			freq := e.match.Freq(e.fill)
			if freq == 0 {
				b.bits[w] &^= 1 << t
				continue
			}
			b.score[j] = e.score(freq)
		}
	}
}

func (e *phraseEval) score(freq float32) float64 {
	if e.bm25 == nil {
		return 0
	}
	return float64(e.bm25.Score(freq, e.norms[e.doc]))
}

// positions appends the positions of position i's terms in e.doc, ascending (a
// position two terms hold twice), as scoring's positionPostings gives them.
func (e *phraseEval) positions(i int, buf []int) []int {
	for _, tp := range e.terms[i] {
		if tp != nil {
			buf = tp.at(e.s, e.doc, buf)
		}
	}
	if len(e.terms[i]) > 1 {
		slices.Sort(buf)
	}
	return buf
}

func (e *phraseEval) release() { e.cand.release() }

// termPositions reads one term's positions in the documents a phrase asks for, in
// increasing order.
type termPositions struct {
	it      segapi.PostingsIterator
	p       segapi.Posting // at or after the last document asked for; nil once done
	started bool
}

// openPositions reads the list's positions; nil when the segment lacks the term (an
// empty list of another type).
func openPositions(l segapi.PostingsList) *termPositions {
	zpl, ok := l.(*zap.PostingsList)
	if !ok {
		return nil
	}
	return &termPositions{it: zpl.Iterator(true, false, true, nil)}
}

// at appends the term's positions in document d, none when d lacks the term.
func (t *termPositions) at(s *segment, d uint32, buf []int) []int {
	if !t.started || (t.p != nil && t.p.Number() < uint64(d)) {
		p, err := t.it.Advance(uint64(d))
		if err != nil {
			s.fail(err)
		}
		t.p, t.started = p, true
	}
	if t.p == nil || t.p.Number() != uint64(d) {
		return buf
	}
	for _, l := range t.p.Locations() {
		buf = append(buf, int(l.Pos()))
	}
	return buf
}
