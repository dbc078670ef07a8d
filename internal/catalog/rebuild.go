package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
)

// A settings rebuild copies the catalog into a new physical index made from new
// settings, while writes go on, and swaps it in without losing any:
//
//  1. Note mark, the indexedRevision: every write at or below it is visible in the
//     source index. Copy every document in pages (search_after on objectID), writing
//     each one's version into it explicitly (a replacement's records carry none and take
//     State.Bases[source]), so versions survive the move.
//  2. Catch up: copy the documents whose version is above mark, then raise mark; a few
//     rounds shrink what is left for step 3.
//  3. Fence (no new revisions) and wait for pending writes; copy what is above mark one
//     last time, delete the documents that were deleted meanwhile (when the counts
//     differ), and move the alias in one call, still fenced; then unfence. A write
//     waits for the fence (bounded) and then goes to the new index.
//
// If the alias moved meanwhile (a replacement), the copy is stale: ErrSourceMoved.

// ErrSourceMoved: a replacement moved the alias during the rebuild; start over.
var ErrSourceMoved = errors.New("the catalog was replaced during the rebuild")

// RebuildPage is the number of documents per copy page.
const RebuildPage = 1000

// catchUpRounds bound the catch-up before the fence.
const catchUpRounds = 3

// Progress is how far a rebuild's copy is.
type Progress struct {
	Done, Total int64
	// Target is the physical index being filled.
	Target string
}

// Rebuild moves the catalog of t into a new physical index built from t.Settings and
// returns its name. progress is called after every page.
func (s *Service) Rebuild(ctx context.Context, t Target, progress func(Progress)) (string, error) {
	source, err := s.aliasTarget(ctx, t.Names)
	if err != nil {
		return "", err
	}
	if source == "" {
		return "", fmt.Errorf("rebuilding %s: the alias points at no index", t.Names.Alias())
	}
	physical, err := s.newPhysical(ctx, t, "rebuild", newOwnerID())
	if err != nil {
		return "", err
	}
	leaseCtx, stop := context.WithCancel(ctx)
	defer stop()
	if err := s.holdBuild(leaseCtx, t.Names, physical); err != nil {
		s.deleteIndex(ctx, physical)
		return "", err
	}
	defer s.dropBuild(context.WithoutCancel(ctx), t.Names, physical)
	if err := s.rebuildInto(ctx, t.Names, source, physical, progress); err != nil {
		s.deleteIndex(ctx, physical)
		return "", err
	}
	return physical, nil
}

func (s *Service) rebuildInto(ctx context.Context, names esnames.Index, source, physical string, progress func(Progress)) error {
	st, _, err := s.loadState(ctx, names)
	if err != nil {
		return err
	}
	c := &copier{s: s, source: source, target: physical, base: max(st.Bases[source], 1), progress: progress}
	if c.total, err = s.count(ctx, source); err != nil {
		return err
	}
	mark := st.Prune(s.cfg.Now()).Indexed()
	if err := c.copy(ctx, nil); err != nil {
		return err
	}
	for round := 0; round < catchUpRounds; round++ {
		st, _, err := s.loadState(ctx, names)
		if err != nil {
			return err
		}
		next := st.Prune(s.cfg.Now()).Indexed()
		if err := c.copy(ctx, above(mark)); err != nil {
			return err
		}
		mark = next
	}
	return s.finishRebuild(ctx, names, c, mark)
}

// finishRebuild is step 3: under the fence, the last catch-up, deletes and the swap.
func (s *Service) finishRebuild(ctx context.Context, names esnames.Index, c *copier, mark int64) error {
	owner := newOwnerID()
	if err := s.fence(ctx, names, owner); err != nil {
		return err
	}
	st, _, err := s.loadState(ctx, names)
	if err == nil {
		err = s.syncFenced(ctx, names, c, mark)
	}
	var lease Lease
	if err == nil {
		_, err = s.update(ctx, names, func(cur State) (State, error) {
			if cur.Revision != st.Revision {
				return cur, fmt.Errorf("%w: a write got past the fence", ErrSwapBusy)
			}
			next, l, err := cur.BeginSwap(s.cfg.Now(), owner, c.target, s.cfg.WriteLease)
			lease = l
			return next, err
		})
	}
	if err != nil {
		s.unfence(context.WithoutCancel(ctx), names, owner, 0)
		return err
	}
	old, err := s.moveAlias(ctx, names, c.target)
	if err != nil {
		s.unfence(context.WithoutCancel(ctx), names, owner, lease.Rev)
		return err
	}
	if _, err := s.update(ctx, names, func(st State) (State, error) {
		next, err := st.Complete(s.cfg.Now(), lease.Rev, true)
		return next.ClearFence(owner).DropBase(old), err
	}); err != nil {
		return fmt.Errorf("completing the rebuild of %s: %w", names.Alias(), err)
	}
	if old != "" && old != c.target {
		s.deleteIndex(ctx, old)
	}
	return nil
}

// syncFenced brings the target level with the source while no write can happen.
func (s *Service) syncFenced(ctx context.Context, names esnames.Index, c *copier, mark int64) error {
	current, err := s.aliasTarget(ctx, names)
	if err != nil {
		return err
	}
	if current != c.source {
		return ErrSourceMoved
	}
	if err := c.copy(ctx, above(mark)); err != nil {
		return err
	}
	if err := s.refresh(ctx, c.target); err != nil {
		return err
	}
	inSource, err := s.count(ctx, c.source)
	if err != nil {
		return err
	}
	inTarget, err := s.count(ctx, c.target)
	if err != nil {
		return err
	}
	if inSource != inTarget {
		if err := c.dropDeleted(ctx); err != nil {
			return err
		}
	}
	return s.refresh(ctx, c.target)
}

func above(mark int64) map[string]any {
	return map[string]any{"range": map[string]any{VersionField: map[string]any{"gt": mark}}}
}

// copier copies documents from source to target.
type copier struct {
	s              *Service
	source, target string
	base           int64
	done, total    int64
	progress       func(Progress)
}

type hit struct {
	ID     string          `json:"_id"`
	Source json.RawMessage `json:"_source"`
	Sort   []any           `json:"sort"`
}

// copy copies the source documents matching filter (all when nil), page by page.
func (c *copier) copy(ctx context.Context, filter map[string]any) error {
	var after []any
	for {
		hits, err := c.s.page(ctx, c.source, filter, after, true)
		if err != nil {
			return err
		}
		if len(hits) == 0 {
			return nil
		}
		ops := make([]bulkOp, 0, len(hits))
		for _, h := range hits {
			ops = append(ops, bulkOp{id: h.ID, doc: c.versioned(h.Source)})
		}
		if err := c.s.bulkAt(ctx, c.target, ops, 0); err != nil {
			return err
		}
		if filter == nil {
			c.done += int64(len(hits))
			if c.progress != nil {
				c.progress(Progress{Done: c.done, Total: max(c.total, c.done), Target: c.target})
			}
		}
		after = hits[len(hits)-1].Sort
	}
}

// versioned returns the stored document with its version written in.
func (c *copier) versioned(src json.RawMessage) []byte {
	var v struct {
		Version *int64 `json:"aisleVersion"`
	}
	if json.Unmarshal(src, &v) == nil && v.Version != nil {
		return src
	}
	return withVersion(src, c.base)
}

// dropDeleted deletes from the target the documents the source no longer has: both
// id lists in objectID order, merged.
func (c *copier) dropDeleted(ctx context.Context) error {
	keep := map[string]bool{}
	var after []any
	for {
		hits, err := c.s.page(ctx, c.source, nil, after, false)
		if err != nil {
			return err
		}
		if len(hits) == 0 {
			break
		}
		for _, h := range hits {
			keep[h.ID] = true
		}
		after = hits[len(hits)-1].Sort
	}
	after = nil
	for {
		hits, err := c.s.page(ctx, c.target, nil, after, false)
		if err != nil {
			return err
		}
		if len(hits) == 0 {
			return nil
		}
		var ops []bulkOp
		for _, h := range hits {
			if !keep[h.ID] {
				ops = append(ops, bulkOp{id: h.ID, delete: true})
			}
		}
		if err := c.s.bulkAt(ctx, c.target, ops, 0); err != nil {
			return err
		}
		after = hits[len(hits)-1].Sort
	}
}

// page reads one page of index in objectID order after the sort values after.
func (s *Service) page(ctx context.Context, index string, filter map[string]any, after []any, withSource bool) ([]hit, error) {
	body := map[string]any{
		"size":             RebuildPage,
		"sort":             []any{map[string]any{ObjectIDField: "asc"}},
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
	res, err := s.es.Search().Index(index).Raw(bytes.NewReader(raw)).Perform(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", index, es.Classify(err))
	}
	defer func() { _ = res.Body.Close() }()
	if err := es.ResponseError(res); err != nil {
		return nil, fmt.Errorf("reading %s: %w", index, err)
	}
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", index, es.Classify(err))
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
