package aggs

import (
	"github.com/aislehq/aisle/internal/engine/dsl"
	"github.com/aislehq/aisle/internal/engine/eserr"
)

// A global aggregation's bucket is every document of the index, whatever the query: its
// collector ignores the matches and, once they are all seen, feeds its sub-aggregations
// every live document (see shard.finish). ES allows it at the top level only.
func parseGlobal(a *Agg, v any, _ *dsl.Context) error {
	body, ok := v.(map[string]any)
	if !ok {
		return eserr.Parsing("Expected [START_OBJECT] under [global], but got a [%T] in [%s]", v, a.Name)
	}
	for k := range body {
		return eserr.Parsing("[global] unknown field [%s]", k).With("line", 1).With("col", 1)
	}
	return nil
}

// checkGlobals refuses a global aggregation below another aggregation.
func checkGlobals(aggs []*Agg) error {
	for _, a := range aggs {
		for _, s := range a.Subs {
			if s.Type == "global" {
				return eserr.New(400, "aggregation_initialization_exception", "Aggregator [%s] of type [global] cannot be a sub-aggregator of [%s]. Global aggregations can only be defined as top level aggregations", s.Name, a.Name)
			}
		}
		if err := checkGlobals(a.Subs); err != nil {
			return err
		}
	}
	return nil
}

type globalAgg struct {
	docs int64
	subs []aggregator
}

func newGlobal(_ *shard, _ *Agg, subs []aggregator) (aggregator, error) {
	return &globalAgg{subs: subs}, nil
}

func (g *globalAgg) collect(doc, int) error { return nil }

// fill collects every live document of the shard into the sub-aggregations, scored 1
// as match_all scores them.
func (g *globalAgg) fill(sh *shard) error {
	return sh.view.EachLive(func(seg int, local, id uint64) error {
		g.docs++
		return collectAll(g.subs, doc{seg: seg, local: local, id: id, score: 1}, 0)
	})
}

func (g *globalAgg) result(owner int) *partial {
	p := newPartial()
	if owner == 0 {
		p.docs = g.docs
	}
	p.buckets = map[string]*pbucket{"": {subs: resultsOf(g.subs, owner)}}
	return p
}

func (g *globalAgg) close() error { return closeAll(g.subs) }

func (r renderer) global(a *Agg, p *partial) (map[string]any, error) {
	out, err := r.subs(a, p.buckets[""])
	if err != nil {
		return nil, err
	}
	out["doc_count"] = p.docs
	return out, nil
}
