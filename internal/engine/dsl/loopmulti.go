package dsl

import (
	bq "github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"
	segapi "github.com/blevesearch/scorch_segment_api/v2"

	"github.com/aislehq/aisle/internal/engine/loop"
	"github.com/aislehq/aisle/internal/engine/scoring"
)

// The loop's plans of multi-term queries: fuzzy and prefix queries match the very terms
// their searchers expand to in the reader (fuzzyQuery.expand; the dictionary's prefix
// walk of bleve's prefix searcher), or-ed into a bit set per segment (loop.Terms).

// termsNode matches the documents holding any of terms in field.
func (p *planner) termsNode(field string, terms []string) (loop.Node, error) {
	if len(terms) == 0 {
		return loop.None{}, nil
	}
	lists, err := p.rd.TermsPostings(field, terms)
	return &loop.Terms{Lists: lists}, err
}

func (p *planner) fuzzyMatch(q *fuzzyQuery) (loop.Node, error) {
	terms, err := q.terms(p.r)
	if err != nil {
		return nil, err
	}
	return p.termsNode(q.field, terms)
}

// prefixMatch is bleve's prefix searcher's plan: the field's terms that start with the
// prefix, listed from the reader's dictionary as NewTermPrefixSearcher lists them.
func (p *planner) prefixMatch(q *bq.PrefixQuery) (loop.Node, error) {
	field := fieldOr(q.FieldVal, p.m)
	dict, err := p.r.FieldDictPrefix(field, []byte(q.Prefix))
	if err != nil {
		return nil, err
	}
	var terms []string
	if err := eachTerm(dict, func(e *index.DictEntry) { terms = append(terms, e.Term) }); err != nil {
		return nil, err
	}
	return p.termsNode(field, terms)
}

// fuzzyNode is fuzzyQuery.scorer's plan: a constant score, or the sum of the
// expansions' scores as the rewrite method weighs them.
func (p *planner) fuzzyNode(q *fuzzyQuery, boost float32) (loop.Node, error) {
	b := q.times(boost)
	if q.opts.mode == rewriteConstant {
		return p.constant(q, b)
	}
	exps, err := q.expand(p.r)
	if err != nil {
		return nil, err
	}
	ws, err := q.weighted(p.r, exps, b)
	if err != nil {
		return nil, err
	}
	subs, err := planEach(ws, func(w weightedTerm) (loop.Node, error) { return p.expansionNode(q, w) })
	if err != nil || len(subs) == 0 {
		return loop.None{}, err
	}
	return disjunctionOf(subs, 1), nil
}

// expansionNode is fuzzyQuery.termScorer's plan.
func (p *planner) expansionNode(q *fuzzyQuery, w weightedTerm) (loop.Node, error) {
	lists, _, err := p.rd.Postings(w.t.Field, w.t.Term)
	if err != nil {
		return nil, err
	}
	if q.opts.mode == rewriteBoostOnly {
		return &loop.Constant{Node: &loop.Terms{Lists: [][]segapi.PostingsList{lists}}, Score: float64(w.boost)}, nil
	}
	return p.scoredTerm(w.t, lists, w.t.Weight(w.st, w.boost))
}

// scoredTerm is a term's BM25 plan, with its field's norms when a text field's.
func (p *planner) scoredTerm(t scoring.Term, lists []segapi.PostingsList, bm25 *scoring.BM25) (loop.Node, error) {
	n := &loop.Term{Lists: lists, Text: t.Text, BM25: bm25}
	if t.Text {
		var err error
		if n.Norms, err = p.rd.Norms(t.Field); err != nil {
			return nil, err
		}
	}
	return n, nil
}
