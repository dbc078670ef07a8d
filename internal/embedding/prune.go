package embedding

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/embedder"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/indexlifecycle"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// The embeddings index keeps a vector per text ever embedded, which a catalog that
// changes its texts, its embedders' settings or its embedders would grow without end.
// A prune keeps only the vectors some record of the index holds now: it reads the text
// keys of the records' states for the index's openAI embedders, then deletes every kept
// vector none of them names, which drops the vectors of texts no record holds any more,
// of an embedder's former model, server or dimensions, and of removed embedders. So
// after a prune the index holds at most one vector per record and embedder. It runs when
// no record of the index waits for a vector (every state is then current); a record
// rewritten meanwhile costs at most one call more, never a wrong vector.

// prunePage is how many documents a prune reads or deletes at a time.
const prunePage = 1000

// pruneKept deletes the kept vectors of the embeddings index that no record of alias
// names for one of embedders, and answers how many it deleted.
func (s store) pruneKept(ctx context.Context, alias, index string, embedders []Named) (int, error) {
	if len(embedders) == 0 {
		return 0, indexlifecycle.New(s.es).Delete(ctx, index) // no embedder left: no vector to keep
	}
	live, err := s.textKeys(ctx, alias, embedders)
	if err != nil {
		return 0, err
	}
	deleted := 0
	err = s.eachPage(ctx, index, map[string]any{"_source": false}, func(hits []pageHit) error {
		var stale []string
		for _, h := range hits {
			if !live[h.ID] {
				stale = append(stale, h.ID)
			}
		}
		n, err := s.deleteKept(ctx, index, stale)
		deleted += n
		return err
	})
	if errors.Is(err, es.ErrNotFound) {
		return deleted, nil // nothing was ever kept
	}
	return deleted, err
}

// textKeys are the keys of the texts the records of alias hold for embedders.
func (s store) textKeys(ctx context.Context, alias string, embedders []Named) (map[string]bool, error) {
	live := map[string]bool{}
	body := map[string]any{"_source": []string{indexmapping.EmbedStateField}}
	err := s.eachPage(ctx, alias, body, func(hits []pageHit) error {
		for _, h := range hits {
			var src struct {
				State map[string]struct {
					Text string `json:"text"`
				} `json:"_aisle_embed"`
			}
			if err := json.Unmarshal(h.Source, &src); err != nil {
				return fmt.Errorf("decoding the embedders' state of %s: %w", h.ID, err)
			}
			for _, n := range embedders {
				if k := src.State[n.Name].Text; k != "" {
					live[k] = true
				}
			}
		}
		return nil
	})
	return live, err
}

type pageHit struct {
	ID     string          `json:"_id"`
	Source json.RawMessage `json:"_source"`
	Sort   []any           `json:"sort"`
}

// eachPage calls fn with the hits of body's search of index, page after page, from one
// point in time, so that the deletes of one page do not shift the next.
func (s store) eachPage(ctx context.Context, index string, body map[string]any, fn func([]pageHit) error) error {
	pit, err := s.es.OpenPointInTime(index).KeepAlive("1m").Do(ctx)
	if err != nil {
		return fmt.Errorf("opening a snapshot of %s: %w", index, es.Classify(err))
	}
	defer func() { _, _ = s.es.ClosePointInTime().Id(pit.Id).Do(context.WithoutCancel(ctx)) }()
	body["size"], body["track_total_hits"] = prunePage, false
	body["sort"] = []any{map[string]any{"_shard_doc": "asc"}}
	body["pit"] = map[string]any{"id": pit.Id, "keep_alive": "1m"}
	for {
		raw, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("encoding a page of %s: %w", index, err)
		}
		ans, err := es.ReadBody(s.es.Search().Raw(bytes.NewReader(raw)).Perform(ctx)) //nolint:bodyclose // ReadBody closes it
		if err != nil {
			return fmt.Errorf("reading a page of %s: %w", index, err)
		}
		var page struct {
			Hits struct {
				Hits []pageHit `json:"hits"`
			} `json:"hits"`
		}
		if err := json.Unmarshal(ans, &page); err != nil {
			return fmt.Errorf("decoding a page of %s: %w", index, err)
		}
		hits := page.Hits.Hits
		if len(hits) == 0 {
			return nil
		}
		if err := fn(hits); err != nil {
			return err
		}
		body["search_after"] = hits[len(hits)-1].Sort
	}
}

// deleteKept deletes the kept vectors of keys; one already gone counts as deleted.
func (s store) deleteKept(ctx context.Context, index string, keys []string) (int, error) {
	if len(keys) == 0 {
		return 0, nil
	}
	var buf bytes.Buffer
	for _, k := range keys {
		b, err := json.Marshal(map[string]any{"delete": map[string]any{"_id": k}})
		if err != nil {
			return 0, fmt.Errorf("encoding a bulk line: %w", err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	res, err := s.es.Bulk().Index(index).Refresh(refresh.True).Raw(&buf).Perform(ctx) //nolint:bodyclose // BulkItems closes it
	items, err := es.BulkItems(len(keys), res, err)
	if err != nil {
		return 0, fmt.Errorf("deleting %d kept vectors of %s: %w", len(keys), index, err)
	}
	for _, it := range items {
		if it.Error != nil && it.Status != http.StatusNotFound {
			return 0, fmt.Errorf("deleting a kept vector of %s: %s: %s: %w", index, it.Error.Type, it.Error.Reason, es.ErrUnavailable)
		}
	}
	return len(keys), nil
}

// pruneIdle prunes the kept vectors of idx, at most once per PruneInterval, when no
// record waits (this replica's passes also find none while another holds the lease);
// a failure is logged and tried again at the next interval.
func (s *Service) pruneIdle(ctx context.Context, idx *searchv1alpha1.SearchIndex) {
	names := esnames.For(idx.Namespace, idx.Name)
	if !s.due(names.Alias()) {
		return
	}
	n, err := s.pruneIfSettled(ctx, idx)
	if err != nil && ctx.Err() == nil {
		s.cfg.Logger.ErrorContext(ctx, "pruning the kept vectors", slog.String("index", idx.Namespace+"/"+idx.Name), slog.Any("error", err))
		return
	}
	if n > 0 {
		s.cfg.Logger.InfoContext(ctx, "pruned the kept vectors no record holds", slog.String("index", idx.Namespace+"/"+idx.Name), slog.Int("deleted", n))
	}
}

func (s *Service) pruneIfSettled(ctx context.Context, idx *searchv1alpha1.SearchIndex) (int, error) {
	waiting, err := s.Waiting(ctx, idx)
	if err != nil {
		return 0, err
	}
	for _, n := range waiting {
		if n > 0 {
			return 0, nil
		}
	}
	names := esnames.For(idx.Namespace, idx.Name)
	return s.store.pruneKept(ctx, names.Alias(), names.Embeddings(), Computed(idx.Spec.Settings))
}

// retainQueries drops from the query cache, at most once per PruneInterval, the vectors
// of sources no embedder of idxs makes.
func (s *Service) retainQueries(idxs []searchv1alpha1.SearchIndex) {
	if !s.due("") {
		return
	}
	live := map[embedder.Source]bool{}
	for i := range idxs {
		for _, n := range Computed(idxs[i].Spec.Settings) {
			live[s.source(n)] = true
		}
	}
	s.queries.Retain(func(src embedder.Source) bool { return live[src] })
}

// due answers whether key's last prune is PruneInterval old, and if so counts one now.
func (s *Service) due(key string) bool {
	now := time.Now()
	if last, ok := s.pruned[key]; ok && now.Sub(last) < s.cfg.PruneInterval {
		return false
	}
	s.pruned[key] = now
	return true
}
