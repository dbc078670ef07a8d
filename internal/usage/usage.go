// Package usage counts searches per workspace and calendar month (UTC) against the
// plan's monthlySearches, across apiserver replicas.
//
// Each replica counts locally and adds its count to a shared counter document in
// Elasticsearch every FlushInterval (compare-and-set with if_seq_no/if_primary_term, or
// op_type=create for the first), reading back the total that every replica has added.
// A search is refused when the last total read plus this replica's unflushed count
// reaches the limit. So within one replica the limit is exact; across N replicas it can
// be overshot by at most what the other replicas served in one interval.
package usage

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/optype"

	"github.com/aislehq/aisle/internal/es"
)

// DefaultFlushInterval is how often counts are shared.
const DefaultFlushInterval = time.Second

// Meter counts searches.
type Meter struct {
	es    *elasticsearch.TypedClient
	index string
	now   func() time.Time

	mu      sync.Mutex
	entries map[key]*entry
}

type key struct{ workspace, month string }

type entry struct {
	// known is the shared total as last read; pending was counted here since.
	known, pending int64
}

// New returns a meter keeping its counters in index.
func New(client *elasticsearch.TypedClient, index string) *Meter {
	return &Meter{es: client, index: index, now: time.Now, entries: map[key]*entry{}}
}

// Allow counts one search of workspace ws unless it would exceed limit this month. The
// first search of a workspace in a month reads the shared total, so a new replica does
// not start from zero.
func (m *Meter) Allow(ctx context.Context, ws string, limit int64) (bool, error) {
	k := key{ws, m.now().UTC().Format("2006-01")}
	m.mu.Lock()
	e := m.entries[k]
	m.mu.Unlock()
	if e == nil {
		total, err := m.add(ctx, k, 0)
		if err != nil {
			return false, err
		}
		m.mu.Lock()
		if e = m.entries[k]; e == nil {
			e = &entry{known: total}
			m.entries[k] = e
		}
		m.mu.Unlock()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if limit > 0 && e.known+e.pending >= limit {
		return false, nil
	}
	e.pending++
	return true, nil
}

// Run flushes every interval until ctx ends, then once more.
func (m *Meter) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			m.Flush(context.WithoutCancel(ctx))
			return
		case <-t.C:
			m.Flush(ctx)
		}
	}
}

// Flush adds the local counts to the shared counters and reads back their totals;
// counters of past months are dropped. A failed flush keeps its counts for the next.
func (m *Meter) Flush(ctx context.Context) {
	month := m.now().UTC().Format("2006-01")
	m.mu.Lock()
	work := make(map[key]int64, len(m.entries))
	for k, e := range m.entries {
		if k.month != month && e.pending == 0 {
			delete(m.entries, k)
			continue
		}
		work[k] = e.pending
	}
	m.mu.Unlock()
	for k, delta := range work {
		total, err := m.add(ctx, k, delta)
		if err != nil {
			continue
		}
		m.mu.Lock()
		if e := m.entries[k]; e != nil {
			e.known = total
			e.pending -= delta
		}
		m.mu.Unlock()
	}
}

type counter struct {
	Workspace string `json:"workspace"`
	Month     string `json:"month"`
	Searches  int64  `json:"searches"`
}

// add adds delta to the shared counter of k and returns its new total.
func (m *Meter) add(ctx context.Context, k key, delta int64) (int64, error) {
	id := k.workspace + "." + k.month
	for attempt := 0; attempt < 10; attempt++ {
		res, err := m.es.Get(m.index, id).Realtime(true).Do(ctx)
		err = es.Classify(err)
		if err != nil && !errors.Is(err, es.ErrNotFound) {
			return 0, fmt.Errorf("reading usage %s: %w", id, err)
		}
		c := counter{Workspace: k.workspace, Month: k.month}
		if err == nil && res.Found {
			if err := json.Unmarshal(res.Source_, &c); err != nil {
				return 0, fmt.Errorf("decoding usage %s: %w", id, err)
			}
		}
		if delta == 0 {
			return c.Searches, nil
		}
		c.Searches += delta
		body, _ := json.Marshal(c)
		req := m.es.Index(m.index).Id(id).Raw(bytes.NewReader(body))
		if err == nil && res.Found && res.SeqNo_ != nil && res.PrimaryTerm_ != nil {
			req = req.IfSeqNo(fmt.Sprint(*res.SeqNo_)).IfPrimaryTerm(fmt.Sprint(*res.PrimaryTerm_))
		} else {
			req = req.OpType(optype.Create)
		}
		_, err = req.Do(ctx)
		err = es.Classify(err)
		if err == nil {
			return c.Searches, nil
		}
		if !errors.Is(err, es.ErrConflict) {
			return 0, fmt.Errorf("writing usage %s: %w", id, err)
		}
	}
	return 0, fmt.Errorf("writing usage %s: %w", id, es.ErrConflict)
}
