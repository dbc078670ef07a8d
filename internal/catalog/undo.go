package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"

	"github.com/aislehq/aisle/internal/es"
)

// A POST /records whose records the mapping check accepted can still have one refused
// by the backend inside _bulk (a rule the check does not know). The items before and
// after it are written by then; undoing them keeps "a bad record writes nothing": the
// documents are read before the write (_mget) and restored after a refusal.

// upsertOrUndo writes records at version rev; when the backend refuses one, it restores
// what the others changed and returns the refusal, so the request has no effect.
// It returns the records the write added.
func (s *Service) upsertOrUndo(ctx context.Context, alias string, records []Record, rev int64) (int64, error) {
	if len(records) == 1 {
		// A _bulk of one item that is refused wrote nothing: there is nothing to undo.
		return s.bulkWrite(ctx, alias, upsertOps(records, rev))
	}
	prior, err := s.priorDocs(ctx, alias, uniqueIDs(records))
	if err != nil {
		return 0, err
	}
	added, err := s.bulkWrite(ctx, alias, upsertOps(records, rev))
	var be *bulkError
	if !errors.As(err, &be) || len(be.written) == 0 {
		return added, err
	}
	if uerr := s.undo(context.WithoutCancel(ctx), alias, be.written, prior); uerr != nil {
		// Some records of the refused request may stay written: not a 400 any more.
		return 0, fmt.Errorf("%w: %s; undoing the other records failed: %w", es.ErrUnavailable, be.err.Error(), uerr)
	}
	return 0, err
}

// priorDocs reads the stored documents of ids in real time; absent ones are left out.
func (s *Service) priorDocs(ctx context.Context, alias string, ids []string) (map[string]json.RawMessage, error) {
	body, err := json.Marshal(map[string]any{"ids": ids})
	if err != nil {
		return nil, fmt.Errorf("encoding an _mget: %w", err)
	}
	res, err := s.es.Mget().Index(alias).Raw(bytes.NewReader(body)).Perform(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading %d records of %s: %w", len(ids), alias, es.Classify(err))
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("reading %d records of %s: status %d: %w", len(ids), alias, res.StatusCode, es.ErrUnavailable)
	}
	var out struct {
		Docs []struct {
			ID     string          `json:"_id"`
			Found  bool            `json:"found"`
			Source json.RawMessage `json:"_source"`
		} `json:"docs"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("decoding the records of %s: %w", alias, err)
	}
	prior := make(map[string]json.RawMessage, len(out.Docs))
	for _, d := range out.Docs {
		if d.Found {
			prior[d.ID] = d.Source
		}
	}
	return prior, nil
}

// undo restores the documents a refused write changed: the prior version, or nothing
// where there was none. Each is conditional on the seq_no the refused write gave it,
// so a later write of another request is never undone.
func (s *Service) undo(ctx context.Context, alias string, done []written, prior map[string]json.RawMessage) error {
	last := map[string]written{} // with repeated ids, the last item holds the current seq_no
	order := []string{}
	for _, w := range done {
		if _, ok := last[w.id]; !ok {
			order = append(order, w.id)
		}
		last[w.id] = w
	}
	var buf bytes.Buffer
	for _, id := range order {
		w := last[id]
		meta, _ := json.Marshal(map[string]any{"_id": id, "if_seq_no": w.seq, "if_primary_term": w.term})
		if src, ok := prior[id]; ok {
			fmt.Fprintf(&buf, "{\"index\":%s}\n%s\n", meta, src)
		} else {
			fmt.Fprintf(&buf, "{\"delete\":%s}\n", meta)
		}
	}
	res, err := s.es.Bulk().Index(alias).RequireAlias(true).Refresh(refresh.Waitfor).Raw(&buf).Do(ctx)
	if err != nil {
		return fmt.Errorf("restoring %d records of %s: %w", len(order), alias, es.Classify(err))
	}
	for _, item := range res.Items {
		for _, r := range item {
			if r.Error != nil && r.Status != http.StatusConflict { // a conflict: written since, keep it
				return fmt.Errorf("restoring record %v of %s: %s", r.Id_, alias, r.Error.Type)
			}
		}
	}
	return nil
}
