package searchlog

import (
	"context"
	"strings"

	"github.com/elastic/go-elasticsearch/v8"

	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/esread"
	"github.com/aislehq/aisle/internal/events"
)

// Reader reads the search log back: the Events page's Searches section and query
// suggestions.
type Reader struct {
	es         *elasticsearch.TypedClient
	stats      *events.FiguresCache[Stats]
	candidates *events.FiguresCache[[]Candidate]
}

// NewReader returns a reader on client.
func NewReader(client *elasticsearch.TypedClient) *Reader {
	return &Reader{es: client, stats: events.NewFiguresCache[Stats](1024),
		candidates: events.NewFiguresCache[[]Candidate](1024)}
}

// Stats returns the Searches section of idx over p, computed at most events.StatsTTL
// ago, as the rest of the Events page. Concurrent misses share one computation.
func (r *Reader) Stats(ctx context.Context, idx esnames.Index, p events.Period) (Stats, error) {
	return r.stats.Get(events.PeriodKey(idx.Stem(), p), func() (Stats, error) { return r.ComputeStats(ctx, idx, p) })
}

// ComputeStats computes the Searches section of idx over p, without the cache: one
// search of the log, then one of the events for the clicks of the queries it found.
func (r *Reader) ComputeStats(ctx context.Context, idx esnames.Index, p events.Period) (Stats, error) {
	raw, err := esread.Search(ctx, r.es, strings.Join(logIndices(idx, p), ","), logQuery(p))
	if err != nil {
		return Stats{}, err
	}
	log, err := decodeLog(raw)
	if err != nil {
		return Stats{}, err
	}
	eventIndices := strings.Join(events.EventIndices(idx, p.Start(), p.End()), ",")
	clicks, err := esread.Search(ctx, r.es, eventIndices, clickQuery(p, log.candidates()))
	if err != nil {
		return Stats{}, err
	}
	return shapeStats(p, log, clicks)
}

// logIndices names the monthly search log indices that may hold searches of p.
func logIndices(idx esnames.Index, p events.Period) []string {
	return events.MonthlyIndices(p.Start(), p.End(), idx.Searches)
}
