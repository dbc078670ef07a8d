package searchlog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/aislehq/aisle/internal/es"
)

// bulk writes batch in one _bulk, after creating the monthly indices it needs; it
// returns how many records were written and the first failure.
func (r *Recorder) bulk(ctx context.Context, batch []Search) (int, error) {
	ready, firstErr := r.ensureAll(ctx, batch)
	body, n := encode(batch, ready)
	if n == 0 {
		return 0, firstErr
	}
	res, err := r.es.Bulk().Raw(bytes.NewReader(body)).Perform(ctx) //nolint:bodyclose // BulkItems closes it
	items, err := es.BulkItems(n, res, err)
	if err != nil {
		return 0, fmt.Errorf("writing %d searches: %w", n, err)
	}
	written := 0
	for _, it := range items {
		if it.Status < 300 && it.Error == nil {
			written++
		} else if firstErr == nil {
			firstErr = fmt.Errorf("writing a search to %s: status %d", it.Index, it.Status)
		}
	}
	return written, firstErr
}

// ensureAll creates the indices of batch that this process has not created yet, and
// says which of them exist.
func (r *Recorder) ensureAll(ctx context.Context, batch []Search) (map[string]bool, error) {
	ready := map[string]bool{}
	var firstErr error
	for _, s := range batch {
		name := IndexName(s)
		if _, seen := ready[name]; seen {
			continue
		}
		err := r.ensure(ctx, s.UID, name)
		ready[name] = err == nil
		if err != nil && firstErr == nil {
			firstErr = err
		}
	}
	return ready, firstErr
}

// ensure creates index name with its mapping once per process and SearchIndex, before
// anything is written to it: a write would otherwise create it with a guessed mapping.
func (r *Recorder) ensure(ctx context.Context, uid, name string) error {
	key := uid + "\x00" + name
	if _, ok := r.ensured.Load(key); ok {
		return nil
	}
	_, err := r.es.Indices.Create(name).Raw(bytes.NewReader([]byte(Mapping))).Do(ctx)
	if err := es.Classify(err); err != nil && !errors.Is(err, es.ErrConflict) {
		return fmt.Errorf("creating search log index %s: %w", name, err)
	}
	r.ensured.Store(key, struct{}{})
	return nil
}

// encode is the _bulk body of the searches of batch whose index is ready, and their
// number.
func encode(batch []Search, ready map[string]bool) ([]byte, int) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	n := 0
	for _, s := range batch {
		name := IndexName(s)
		if !ready[name] {
			continue
		}
		// Neither can fail: plain strings, numbers and booleans.
		_ = enc.Encode(map[string]any{"index": map[string]string{"_index": name}})
		_ = enc.Encode(NewRecord(s))
		n++
	}
	return buf.Bytes(), n
}
