package rebuild

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// copier copies documents from source to target within its run's lease.
type copier struct {
	r              rebuilder
	source, target string
	vectors        vectorKeep // the vectors the target's records keep
	base           int64
	lease          *rebuildLease
	done, total    int64
	started        time.Time
	resumed        bool
	progress       func(Progress)
}

type hit struct {
	ID     string          `json:"_id"`
	Source json.RawMessage `json:"_source"`
	Sort   []any           `json:"sort"`
}

// copy copies the source documents matching filter (all when nil) that sort after
// after (from the first when nil), page by page; written, if set, follows each page.
func (c *copier) copy(ctx context.Context, filter map[string]any, after []any, written func(context.Context, int, []any) error) error {
	return c.r.eachPage(ctx, c.source, filter, after, true, func(hits []hit) error {
		ops := make([]catalog.BulkOp, 0, len(hits))
		for _, h := range hits {
			// No source: deleted between the search and the fetch of its source (the
			// embedded engine reads sources live). Skipping it is what the delete asks;
			// writing it again later gives it a version above mark, for the catch-up.
			if len(h.Source) == 0 {
				continue
			}
			src, err := keepVectors(h.Source, c.vectors)
			if err != nil {
				return fmt.Errorf("copying %s: %w", h.ID, err)
			}
			ops = append(ops, catalog.BulkOp{ID: h.ID, Doc: c.versioned(src)})
		}
		if err := c.syncFields(ctx); err != nil {
			return err
		}
		if err := c.write(ctx, ops); err != nil {
			return err
		}
		if written == nil {
			return nil
		}
		return written(ctx, len(hits), hits[len(hits)-1].Sort)
	})
}

// checkpoint records a page of the full copy, once its documents are in the target.
func (c *copier) checkpoint(ctx context.Context, n int, cursor []any) error {
	c.done += int64(n)
	err := c.lease.update(ctx, func(d *rebuildDoc) { d.Cursor, d.Done = cursor, c.done })
	if err != nil {
		return fmt.Errorf("recording the rebuild's progress: %w", err)
	}
	c.report()
	return nil
}

func (c *copier) report() {
	if c.progress != nil {
		c.progress(Progress{Done: c.done, Total: max(c.total, c.done), Target: c.target, Started: c.started, Resumed: c.resumed})
	}
}

// write writes ops into the target before the run's lease ends.
func (c *copier) write(ctx context.Context, ops []catalog.BulkOp) error {
	bctx, cancel := c.lease.bounded(ctx)
	defer cancel()
	return c.r.cat.BulkAt(bctx, c.target, ops, 0)
}

// versioned returns the stored document with its version written in.
func (c *copier) versioned(src json.RawMessage) []byte {
	var v struct {
		Version *int64 `json:"aisleVersion"`
	}
	if json.Unmarshal(src, &v) == nil && v.Version != nil {
		return src
	}
	return catalog.WithVersion(src, c.base)
}

// dropDeleted deletes from the target the documents the source no longer has: it lists
// the source's ids, then walks the target's.
func (c *copier) dropDeleted(ctx context.Context) error {
	keep := map[string]bool{}
	err := c.r.eachPage(ctx, c.source, nil, nil, false, func(hits []hit) error {
		for _, h := range hits {
			keep[h.ID] = true
		}
		return nil
	})
	if err != nil {
		return err
	}
	return c.r.eachPage(ctx, c.target, nil, nil, false, func(hits []hit) error {
		var ops []catalog.BulkOp
		for _, h := range hits {
			if !keep[h.ID] {
				ops = append(ops, catalog.BulkOp{ID: h.ID, Delete: true})
			}
		}
		return c.write(ctx, ops)
	})
}

// eachPage calls fn with each page of index in objectID order, starting after the sort
// values after (from the first document when nil), until a page comes back empty.
func (r rebuilder) eachPage(ctx context.Context, index string, filter map[string]any, after []any, withSource bool, fn func([]hit) error) error {
	for {
		hits, err := r.page(ctx, index, filter, after, withSource)
		if err != nil {
			return err
		}
		if len(hits) == 0 {
			return nil
		}
		if err := fn(hits); err != nil {
			return err
		}
		after = hits[len(hits)-1].Sort
	}
}

// page reads one page of index in objectID order after the sort values after.
func (r rebuilder) page(ctx context.Context, index string, filter map[string]any, after []any, withSource bool) ([]hit, error) {
	body := map[string]any{
		"size":             PageSize,
		"sort":             []any{map[string]any{indexmapping.ObjectIDField: "asc"}},
		"_source":          withSource,
		"track_total_hits": false,
	}
	if filter != nil {
		body["query"] = filter
	}
	if after != nil {
		body["search_after"] = after
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	data, err := es.ReadBody(r.cat.Client().Search().Index(index).Raw(bytes.NewReader(raw)).Perform(ctx)) //nolint:bodyclose // ReadBody closes it
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", index, err)
	}
	var out struct {
		Hits struct {
			Hits []hit `json:"hits"`
		} `json:"hits"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("decoding a page of %s: %w", index, err)
	}
	return out.Hits.Hits, nil
}
