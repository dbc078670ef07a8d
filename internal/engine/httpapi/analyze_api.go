package httpapi

import (
	"github.com/aislehq/aisle/internal/engine/analyze"
	"github.com/aislehq/aisle/internal/engine/mapper"
	"github.com/aislehq/aisle/internal/engine/searcher"
)

// analyze serves _analyze, scoped to an index when the path or the index parameter names
// one.
func (a *API) analyze(expr string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		body, err := searcher.DecodeBody(q.body)
		if err != nil {
			return 0, nil, err
		}
		r, err := analyze.Parse(body)
		if err != nil {
			return 0, nil, err
		}
		if expr == "" {
			expr = q.param("index")
		}
		var ix *analyze.Index
		if expr != "" {
			sx, err := a.readIndex(expr)
			if err != nil {
				return 0, nil, err
			}
			leaves := sx.Mapping().Leaves()
			ix = &analyze.Index{Analysis: sx.Analysis(), Leaf: func(p string) *mapper.Leaf { return leaves[p] },
				MaxTokens: sx.Settings().Int("index.analyze.max_token_count", analyze.DefaultMaxTokens)}
		}
		resp, err := analyze.Run(r, ix)
		if err != nil {
			return 0, nil, err
		}
		return 200, resp, nil
	}
}
