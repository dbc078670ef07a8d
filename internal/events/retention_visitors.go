package events

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"

	"github.com/aislehq/aisle/internal/es"
)

type visitorHit struct {
	ID          string         `json:"_id"`
	SeqNo       int64          `json:"_seq_no"`
	PrimaryTerm int64          `json:"_primary_term"`
	Source      map[string]any `json:"_source"`
}

// removeVisitors rewrites the orders placed before cutoff that still hold a visitor
// hash, without it. Each is written back only if unchanged since it was read
// (if_seq_no/if_primary_term): an order cancelled meanwhile keeps its cancel and is
// picked up again by the next pass. The subset has no update_by_query or scripts, so
// this is search, then a conditional _bulk, page by page.
func (r *Retention) removeVisitors(ctx context.Context, orders string, cutoff time.Time) (int, error) {
	removed := 0
	for pass := 0; pass < visitorPasses; pass++ {
		hits, err := r.ordersWithVisitor(ctx, orders, cutoff)
		if err != nil || len(hits) == 0 {
			return removed, err
		}
		n, err := r.rewriteWithoutVisitor(ctx, orders, hits)
		removed += n
		if err != nil || n == 0 {
			return removed, err
		}
	}
	return removed, nil
}

func (r *Retention) ordersWithVisitor(ctx context.Context, orders string, cutoff time.Time) ([]visitorHit, error) {
	body, err := json.Marshal(obj{
		"size": visitorPage, "seq_no_primary_term": true,
		"query": obj{"bool": obj{"filter": []any{
			obj{"exists": obj{"field": "visitor"}},
			obj{"range": obj{"timestamp": obj{"lt": cutoff.UnixMilli()}}},
		}}},
	})
	if err != nil {
		return nil, err
	}
	raw, err := es.ReadBody(r.ES.Search().Index(orders).Raw(bytes.NewReader(body)).Perform(ctx)) //nolint:bodyclose // ReadBody closes it
	if errors.Is(err, es.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("finding orders with a visitor hash in %s: %w", orders, err)
	}
	var ans struct {
		Hits struct {
			Hits []visitorHit `json:"hits"`
		} `json:"hits"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		return nil, fmt.Errorf("decoding orders of %s: %w", orders, err)
	}
	return ans.Hits.Hits, nil
}

// rewriteWithoutVisitor writes hits back without their visitor, conditionally, and
// waits until the rewrite is searchable so the next page does not see them again. It
// counts the orders rewritten; conflicts are left to the next pass.
func (r *Retention) rewriteWithoutVisitor(ctx context.Context, orders string, hits []visitorHit) (int, error) {
	var body bytes.Buffer
	for _, h := range hits {
		delete(h.Source, "visitor")
		meta, err := json.Marshal(obj{"index": obj{"_id": h.ID, "if_seq_no": h.SeqNo, "if_primary_term": h.PrimaryTerm}})
		if err != nil {
			return 0, err
		}
		src, err := json.Marshal(h.Source)
		if err != nil {
			return 0, err
		}
		body.Write(meta)
		body.WriteByte('\n')
		body.Write(src)
		body.WriteByte('\n')
	}
	res, err := r.ES.Bulk().Index(orders).Refresh(refresh.Waitfor).Raw(&body).Do(ctx)
	if err := es.Classify(err); err != nil {
		return 0, fmt.Errorf("rewriting orders of %s: %w", orders, err)
	}
	done := 0
	for _, item := range res.Items {
		for _, it := range item {
			switch {
			case it.Status < 300:
				done++
			case it.Status != 409:
				return done, fmt.Errorf("rewriting order %s of %s: status %s", deref(it.Id_), orders, strconv.Itoa(it.Status))
			}
		}
	}
	return done, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
