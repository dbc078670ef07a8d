package dsl

import (
	"strings"

	segapi "github.com/blevesearch/scorch_segment_api/v2"

	"github.com/aislehq/aisle/internal/engine/loop"
)

// phrase is phraseQuery.scorer's plan, or with score false its Searcher's (a filter's
// phrase, which only matches). Scored, it is nothing when no term occurs, as the scorer
// is.
func (p *planner) phrase(q *phraseQuery, boost float32, score bool) (loop.Node, error) {
	pt, err := p.phraseTerms(q)
	if err != nil {
		return nil, err
	}
	n := &loop.Phrase{Terms: pt.terms, Positions: q.positions, Slop: q.slop}
	if !score {
		return n, nil
	}
	bm25, err := q.weightOf(p.rd, pt.dfs, q.times(boost))
	if err != nil || bm25 == nil {
		return loop.None{}, err
	}
	n.BM25 = bm25
	n.Norms, err = p.rd.Norms(q.field)
	return n, err
}

// plannedTerms are a phrase's terms, with their document frequencies in the order of its
// positions and their terms.
type plannedTerms struct {
	terms *loop.PhraseTerms
	dfs   []int64
}

// phraseTerms are the terms of q's positions, each term's postings lists read once; the
// phrases of the plan on the same terms of a field (other slops, other boosts) share
// them, and the loop reads their candidates and positions once for all.
func (p *planner) phraseTerms(q *phraseQuery) (*plannedTerms, error) {
	var key strings.Builder
	key.WriteString(q.field)
	for _, pos := range q.positions {
		key.WriteByte(1)
		key.WriteString(strings.Join(pos.Terms, "\x00"))
	}
	if pt := p.phrases[key.String()]; pt != nil {
		return pt, nil
	}
	pt := &plannedTerms{terms: &loop.PhraseTerms{Lists: make([][][]segapi.PostingsList, len(q.positions))}}
	for i, pos := range q.positions {
		for _, t := range pos.Terms {
			lists, df, err := p.rd.Postings(q.field, []byte(t))
			if err != nil {
				return nil, err
			}
			pt.terms.Lists[i] = append(pt.terms.Lists[i], lists)
			pt.dfs = append(pt.dfs, df)
		}
	}
	if p.phrases == nil {
		p.phrases = map[string]*plannedTerms{}
	}
	p.phrases[key.String()] = pt
	return pt, nil
}
