package loop

import (
	"math/bits"

	"github.com/aislehq/aisle/internal/engine/scoring"
)

// Phrase matches the documents holding a phrase (match_phrase, and each field of
// multi_match's phrase type). In a window its candidates are the documents holding a
// term of every position, read from Blocks as a Term reads them; only those have their
// positions read, and scoring.PhraseMatcher, scoring.PhraseSearcher's matching, tells
// whether and how often the phrase stands there.
type Phrase struct {
	Terms     *PhraseTerms
	Positions []scoring.PhrasePosition
	Slop      int
	// BM25 scores a match with the phrase's frequency there and the document's norm of
	// the field (Norms, per segment), as dsl's phraseScorer does; nil for a filter's
	// phrase, which only matches (score 0).
	BM25  *scoring.BM25
	Norms [][]byte
}

type phraseEval struct {
	r     *phraseReader
	terms *PhraseTerms
	match *scoring.PhraseMatcher
	bm25  *scoring.BM25
	norms []byte
	j     uint32                       // the candidate whose positions fill gives
	fill  func(i int, buf []int) []int // e.positions, made once
}

func (p *Phrase) open(s *segment) evaluator {
	r := p.Terms.reader(s)
	if r == nil {
		return nothing{}
	}
	e := &phraseEval{r: r, terms: p.Terms, match: scoring.NewPhraseMatcher(p.Positions, p.Slop, p.BM25 != nil), bm25: p.BM25}
	if p.BM25 != nil {
		e.norms = p.Norms[s.index]
	}
	e.fill = e.positions
	return e
}

// eval keeps the candidates where the phrase stands, scored with its frequency.
func (e *phraseEval) eval(base uint32, b *block) {
	b.bits = e.r.window(base).bits
	for w, word := range b.bits {
		for word != 0 {
			t := bits.TrailingZeros64(word)
			word &= word - 1
			e.j = uint32(w*64 + t)
			freq := e.match.Freq(e.fill)
			if freq == 0 {
				b.bits[w] &^= 1 << t
				continue
			}
			b.score[e.j] = e.score(base+e.j, freq)
		}
	}
}

func (e *phraseEval) score(d uint32, freq float32) float64 {
	if e.bm25 == nil {
		return 0
	}
	return float64(e.bm25.Score(freq, e.norms[d]))
}

// positions are the positions of position i's terms in the candidate, read once for
// all the phrases on these terms; the matcher only reads them.
func (e *phraseEval) positions(i int, _ []int) []int { return e.r.positions(e.j, i) }

func (e *phraseEval) release() { e.terms.done(e.r) }
