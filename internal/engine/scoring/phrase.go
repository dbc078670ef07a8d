package scoring

import (
	"context"

	"github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"
)

// PhrasePosition is one position of a phrase: its offset from the phrase's first
// position (a stop word the analyzer removed leaves a gap), and the terms that may stand
// there: one, or several for a prefix's expansions or the synonyms an analyzer puts at
// one position (Lucene's MultiPhraseQuery).
type PhrasePosition struct {
	Offset int
	Terms  []string
}

// phraseMatcher finds the matches of a phrase in the document its phrase positions hold.
type phraseMatcher interface {
	reset()
	nextMatch() bool
	weight() float32
}

// PhraseSearcher matches the documents holding a phrase (PhraseQuery, MultiPhraseQuery):
// with slop 0 its exact occurrences (ExactPhraseMatcher), else the placements of its
// terms within slop moves (SloppyPhraseMatcher). Each match's Score is the phrase's
// frequency in the document, Lucene's PhraseScorer's: the number of exact occurrences,
// or the sum of 1 / (1 + length) over the sloppy matches; without freqs, the first
// match's share only, which is enough to know that the document matches. It reads the
// positions of the documents all positions' postings hold; PhraseMatcher matches them.
type PhraseSearcher struct {
	postings []*positionPostings
	match    *PhraseMatcher
	doc      uint64
	started  bool
}

// NewPhraseSearcher opens the postings of every term of the phrase's positions (at
// least two) in field.
func NewPhraseSearcher(ctx context.Context, r index.IndexReader, field string, positions []PhrasePosition, slop int, freqs bool) (*PhraseSearcher, error) {
	s := &PhraseSearcher{match: NewPhraseMatcher(positions, slop, freqs)}
	for _, p := range positions {
		pp, err := openPositionPostings(ctx, r, field, p.Terms)
		if err != nil {
			_ = s.Close()
			return nil, err
		}
		s.postings = append(s.postings, pp)
	}
	return s, nil
}

// Next implements search.Searcher.
func (s *PhraseSearcher) Next(ctx *search.SearchContext) (*search.DocumentMatch, error) {
	target := uint64(0)
	if s.started {
		target = s.doc + 1
	}
	return s.matchFrom(ctx, target)
}

// Advance implements search.Searcher.
func (s *PhraseSearcher) Advance(ctx *search.SearchContext, id index.IndexInternalID) (*search.DocumentMatch, error) {
	target := id.Value()
	if s.started && target <= s.doc {
		target = s.doc + 1
	}
	return s.matchFrom(ctx, target)
}

// matchFrom is the first document at or after target where the phrase matches.
func (s *PhraseSearcher) matchFrom(ctx *search.SearchContext, target uint64) (*search.DocumentMatch, error) {
	s.started = true
	for {
		ok, err := s.align(target)
		if err != nil || !ok {
			return nil, err
		}
		if freq := s.freq(); freq > 0 {
			dm := ctx.DocumentMatchPool.Get()
			dm.IndexInternalID = index.NewIndexInternalID(dm.IndexInternalID, s.doc)
			dm.Score = float64(freq)
			return dm, nil
		}
		target = s.doc + 1
	}
}

// align moves every position's postings to the first document at or after target that
// they all hold; false when one runs out.
func (s *PhraseSearcher) align(target uint64) (bool, error) {
	for {
		agreed := true
		for _, p := range s.postings {
			if err := p.advance(target); err != nil || p.done {
				return false, err
			}
			if p.doc > target {
				target, agreed = p.doc, false
			}
		}
		if agreed {
			s.doc = target
			return true, nil
		}
	}
}

// freq is the phrase's frequency in the current document, 0 when it does not match.
func (s *PhraseSearcher) freq() float32 {
	return s.match.Freq(func(i int, buf []int) []int { return s.postings[i].positions(buf) })
}

// Close implements search.Searcher.
func (s *PhraseSearcher) Close() error { return closeEach(s.postings) }

// Weight implements search.Searcher: Lucene 9 has no query norm.
func (s *PhraseSearcher) Weight() float64 { return 1 }

// SetQueryNorm implements search.Searcher: ignored (see Weight).
func (s *PhraseSearcher) SetQueryNorm(float64) {}

// Count implements search.Searcher: an upper bound, the rarest position's documents.
func (s *PhraseSearcher) Count() uint64 {
	var n uint64
	for i, p := range s.postings {
		if c := p.count(); i == 0 || c < n {
			n = c
		}
	}
	return n
}

// Min implements search.Searcher.
func (s *PhraseSearcher) Min() int { return 0 }

// Size implements search.Searcher.
func (s *PhraseSearcher) Size() int {
	n := 64
	for _, p := range s.postings {
		n += p.size()
	}
	return n
}

// DocumentMatchPoolSize implements search.Searcher.
func (s *PhraseSearcher) DocumentMatchPoolSize() int { return 1 }
