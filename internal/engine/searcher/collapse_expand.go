package searcher

import (
	"context"
	"encoding/json"
	"runtime"
	"strconv"

	"golang.org/x/sync/errgroup"

	"github.com/aislehq/aisle/internal/engine/store"
)

// expand completes collapsed hits as ES's expand phase does: each hit shows its group's
// value in fields, and each inner_hits is a search of the group (the query and
// post_filter of the search, within the group) whose hits the hit carries under its name.
func (c *collapser) expand(ctx context.Context, hits []any, indices []*store.Index, r *Request, o Options) error {
	inner := make([][]map[string]any, len(hits))
	limit := c.spec.MaxConcurrent
	if limit == 0 {
		limit = runtime.GOMAXPROCS(0)
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(limit)
	for i := range hits {
		inner[i] = make([]map[string]any, len(c.spec.InnerHits))
		for j, ih := range c.spec.InnerHits {
			g.Go(func() (err error) {
				inner[i][j], err = c.innerHits(gctx, indices, r, o, ih, c.values[i])
				return err
			})
		}
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for i, h := range hits {
		hit := h.(map[string]any)
		fields, _ := hit["fields"].(map[string]any) // the `fields` option's, if asked for
		if fields == nil {
			fields = map[string]any{}
		}
		fields[c.spec.Field] = []any{c.values[i]}
		hit["fields"] = fields
		if len(c.spec.InnerHits) == 0 {
			continue
		}
		named := make(map[string]any, len(c.spec.InnerHits))
		for j, ih := range c.spec.InnerHits {
			named[c.innerName(ih)] = inner[i][j]
		}
		hit["inner_hits"] = named
	}
	return nil
}

func (c *collapser) innerName(ih *InnerHits) string {
	if ih.Name == "" {
		return c.spec.Field
	}
	return ih.Name
}

// innerHits searches the group of value for one inner_hits.
func (c *collapser) innerHits(ctx context.Context, indices []*store.Index, r *Request, o Options, ih *InnerHits, value any) (map[string]any, error) {
	sub := ih.request(c.groupQuery(r.Query, value))
	sub.PostFilter, sub.Collapse = r.PostFilter, ih.Collapse
	resp, err := Run(ctx, indices, sub, o)
	if err != nil {
		return nil, err
	}
	return map[string]any{"hits": resp["hits"]}, nil
}

// groupQuery is the query within the group of value: the field's term, or no value.
func (c *collapser) groupQuery(query, value any) any {
	var group any
	switch v := value.(type) {
	case nil:
		group = map[string]any{"bool": map[string]any{"must_not": map[string]any{"exists": map[string]any{"field": c.spec.Field}}}}
	case int64:
		group = map[string]any{"term": map[string]any{c.spec.Field: json.Number(strconv.FormatInt(v, 10))}}
	case float64:
		group = map[string]any{"term": map[string]any{c.spec.Field: json.Number(strconv.FormatFloat(v, 'g', -1, 64))}}
	default:
		group = map[string]any{"term": map[string]any{c.spec.Field: value}}
	}
	b := map[string]any{"filter": []any{group}}
	if query != nil {
		b["must"] = query
	}
	return map[string]any{"bool": b}
}
