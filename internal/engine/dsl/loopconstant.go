package dsl

import "github.com/aislehq/aisle/internal/engine/loop"

// constant is constantQuery.scorer's plan: its filter's documents, matched only, each
// scored its boost. (The smallest constant_score that lets phrases in a filter context
// run in the loop, as a catalog search's proximity clauses do.)
func (p *planner) constant(q *constantQuery, boost float32) (loop.Node, error) {
	n, err := p.matchOnly(q.filter)
	if err != nil {
		return nil, err
	}
	return &loop.Constant{Node: n, Score: float64(q.times(boost))}, nil
}
