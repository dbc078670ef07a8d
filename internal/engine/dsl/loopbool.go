package dsl

import (
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/aislehq/aisle/internal/engine/loop"
)

// loopableBool reports whether the loop runs a bool query: its must and should clauses
// are queries it runs, its filters predicates (checked from columns) or filters it finds
// (Matchable), its must_not clauses either, and something drives it (a must clause, or should clauses that must
// match): the loop does not step through every document of an index.
func loopableBool(q *boolQuery, c *Context) bool {
	driven := len(q.must) > 0 || (len(q.should) > 0 && q.minShould > 0)
	if !driven || !allLoopable(q.must, c) || !allLoopable(q.should, c) {
		return false
	}
	for _, f := range q.filter {
		if PredicateOf(f, c) == nil && !postingsFilter(f) && !Matchable(f, c) {
			return false
		}
	}
	for _, n := range q.mustNot {
		if PredicateOf(n, c) == nil && !postingsFilter(n) && !Matchable(n, c) {
			return false
		}
	}
	return true
}

// postingsFilter reports whether q is a filter the loop runs without a predicate: exists
// on a field whose terms tell (a range of all its column's ordinals), or a bleve term
// query (exists from _field_names), matched from its postings.
func postingsFilter(q bq.Query) bool {
	switch q.(type) {
	case *existsTerms, *bq.TermQuery:
		return true
	}
	return false
}

// boolNode is boolQuery.scorer's plan: the must clauses' conjunction, the should
// clauses' disjunction, joined as Lucene's Boolean2ScorerSupplier joins them, then the
// filters and the must_not clauses. Filters never score: with must clauses the
// conjunction sums theirs only; without, the required part scores 0 and the should
// clauses (which must match) give the score, float32(0 + score) being the score.
func (p *planner) boolNode(q *boolQuery, boost float32) (loop.Node, error) {
	b := q.times(boost)
	must, err := p.nodes(q.must, b)
	if err != nil {
		return nil, err
	}
	should, err := p.nodes(q.should, b)
	if err != nil {
		return nil, err
	}
	main := conjunctionOf(must)
	opt := disjunctionOf(should, q.minShould)
	switch {
	case main == nil:
		main = opt
	case opt == nil:
	case q.minShould > 0:
		main = &loop.Conjunction{Subs: []loop.Node{main, opt}, Scoring: 2}
	default:
		main = &loop.Optional{Req: main, Opt: opt}
	}
	return p.filtered(main, q)
}

func conjunctionOf(subs []loop.Node) loop.Node {
	switch len(subs) {
	case 0:
		return nil
	case 1:
		return subs[0]
	}
	return &loop.Conjunction{Subs: subs, Scoring: len(subs)}
}

func disjunctionOf(subs []loop.Node, min int) loop.Node {
	switch {
	case len(subs) == 0:
		return nil
	case len(subs) == 1 && min <= 1:
		return subs[0]
	}
	return &loop.Disjunction{Subs: subs, Min: min}
}

// filtered adds a bool's range filters, filters and must_not clauses to its plan.
func (p *planner) filtered(n loop.Node, q *boolQuery) (loop.Node, error) {
	if len(q.ranges)+len(q.filter)+len(q.mustNot) == 0 {
		return n, nil
	}
	f := &loop.Filtered{Node: n}
	ranges, others := splitRanges(q.filter)
	for _, r := range append(ranges, q.ranges...) {
		c, err := resolve(p.view, r, p.m)
		if err != nil || !c.any {
			return loop.None{}, err // no segment has a value in range, as rangeFilter finds
		}
		f.Ranges = append(f.Ranges, loop.Range{Cols: c.cols, From: c.from, To: c.to})
	}
	var postings []loop.Node
	for _, x := range others {
		c, n, err := p.filter(x)
		switch {
		case err != nil:
			return nil, err
		case c != nil:
			f.Must = append(f.Must, c)
		default:
			postings = append(postings, n)
		}
	}
	for _, x := range q.mustNot {
		if err := p.exclude(f, x); err != nil {
			return nil, err
		}
	}
	if len(postings) > 0 {
		// The filters join the conjunction without scoring: float32 of the one score
		// summed is that score, as in the required clauses of boolQuery.scorer.
		f.Node = &loop.Conjunction{Subs: append([]loop.Node{n}, postings...), Scoring: 1}
	}
	return f, nil
}

// filter plans a filter clause as a check from columns, or else as a filter's node (see
// postingsFilter and Matchable).
func (p *planner) filter(q bq.Query) (loop.Check, loop.Node, error) {
	if pr := PredicateOf(q, p.c); pr != nil {
		c, err := p.check(pr)
		return c, nil, err
	}
	if x, ok := q.(*existsTerms); ok {
		c, err := p.existsCheck(x)
		return c, nil, err
	}
	n, err := p.match(q)
	return nil, n, err
}

// existsCheck is existsTerms' match: any ordinal of the field's column.
func (p *planner) existsCheck(q *existsTerms) (loop.Check, error) {
	c, err := bindExists(p.view, q.field)
	return loop.Check(c), err
}

func (p *planner) check(pr *Pred) (loop.Check, error) {
	c, err := pr.Bind(p.view, p.m)
	return loop.Check(c), err
}

// exclude adds a must_not clause to f: a check, or a filter's node.
func (p *planner) exclude(f *loop.Filtered, q bq.Query) error {
	c, n, err := p.filter(q)
	if c != nil {
		f.Not = append(f.Not, c)
	} else if n != nil {
		f.Excl = append(f.Excl, n)
	}
	return err
}
