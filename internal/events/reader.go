package events

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/hashicorp/golang-lru/v2/expirable"
	"golang.org/x/sync/errgroup"

	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/esread"
)

// StatsTTL is how long computed statistics are served from the cache: the Events page
// may be a minute behind, and three months of events cost the backend a few hundred
// milliseconds to count.
const StatsTTL = time.Minute

// Reader reads events and orders back: the Events page's statistics and Bought
// together.
type Reader struct {
	es    *elasticsearch.TypedClient
	now   func() time.Time
	stats *FiguresCache[Stats]
	// orderCounts are the counted orders per index (see countedOrders).
	orderCounts *expirable.LRU[string, int64]
}

// NewReader returns a reader on client; now tells the time (nil: time.Now).
func NewReader(client *elasticsearch.TypedClient, now func() time.Time) *Reader {
	if now == nil {
		now = time.Now
	}
	return &Reader{es: client, now: now, stats: NewFiguresCache[Stats](1024),
		orderCounts: expirable.NewLRU[string, int64](4096, nil, StatsTTL)}
}

// Now is the reader's clock, for the handlers' default periods.
func (r *Reader) Now() time.Time { return r.now() }

// Stats returns the figures of idx over p, computed at most StatsTTL ago. Concurrent
// misses for the same figures share one computation.
func (r *Reader) Stats(ctx context.Context, idx esnames.Index, p Period) (Stats, error) {
	return r.stats.Get(PeriodKey(idx.Stem(), p), func() (Stats, error) { return r.ComputeStats(ctx, idx, p) })
}

// ComputeStats computes the figures of idx over p, without the cache.
func (r *Reader) ComputeStats(ctx context.Context, idx esnames.Index, p Period) (Stats, error) {
	var events, orders []byte
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) {
		events, err = r.search(gctx, strings.Join(monthIndices(idx, p), ","), statsQuery(p))
		return err
	})
	g.Go(func() (err error) {
		orders, err = r.search(gctx, idx.Orders(), ordersQuery(p))
		return err
	})
	if err := g.Wait(); err != nil {
		return Stats{}, err
	}
	s, err := shapeStats(p, events, orders)
	if err != nil {
		return Stats{}, err
	}
	records, err := r.records(ctx, idx.Alias(), s.productIDs(), nil)
	if err != nil {
		return Stats{}, err
	}
	s.attachRecords(records)
	s.GeneratedAt = r.now().UTC().Format(time.RFC3339)
	return s, nil
}

// monthIndices names the monthly event indices that may hold events of p.
func monthIndices(idx esnames.Index, p Period) []string { return EventIndices(idx, p.Start(), p.End()) }

// EventIndices names the monthly event indices that may hold events from from (included)
// to to (excluded).
func EventIndices(idx esnames.Index, from, to time.Time) []string {
	return MonthlyIndices(from, to, idx.Events)
}

// MonthlyIndices names, with name, the monthly indices that may hold documents from
// from (included) to to (excluded).
func MonthlyIndices(from, to time.Time, name func(time.Time) string) []string {
	var out []string
	from = from.UTC()
	for m := time.Date(from.Year(), from.Month(), 1, 0, 0, 0, 0, time.UTC); m.Before(to); m = m.AddDate(0, 1, 0) {
		out = append(out, name(m))
	}
	return out
}

// search runs body against indices, any of which may not exist yet (see esread.Search).
func (r *Reader) search(ctx context.Context, indices string, body obj) ([]byte, error) {
	return esread.Search(ctx, r.es, indices, body)
}

// records fetches catalog records by ID (see esread.Records).
func (r *Reader) records(ctx context.Context, alias string, ids []string, includes []string) (map[string]json.RawMessage, error) {
	return esread.Records(ctx, r.es, alias, ids, includes)
}
