package search

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/searchquery"
)

// DefaultWordStatsTTL is how long a word's document frequency is reused: it weighs the
// word against the query's others, which a minute of writes barely moves. A word no
// record holds is never reused (see reusable).
const DefaultWordStatsTTL = time.Minute

// maxWordStats bounds the cached frequencies (all indexes together); past it the cache
// starts again empty.
const maxWordStats = 100_000

type wordKey struct{ alias, clause string }

type cachedFreq struct {
	df, records int64
	fetched     time.Time
}

// reusable says a cached frequency may stand in for a count: fresh, and of a word some
// record held. A word no record held is counted again at every search that has it, since
// ignoring it would hide a record written since, which the contract makes searchable once
// its write is acknowledged; a count of a word records hold only weighs it, and a minute
// of writes barely moves that.
func (e cachedFreq) reusable(now time.Time, ttl time.Duration) bool {
	return e.df > 0 && now.Sub(e.fetched) < ttl
}

type wordStatsCache struct {
	ttl     time.Duration
	mu      sync.Mutex
	entries map[wordKey]cachedFreq
}

// wordStats returns the frequencies of clauses behind alias, from the cache when fresh;
// the missing ones are counted in one search. A query repeated within the TTL (most of
// a shop's traffic) costs no extra round trip.
func (s *Service) wordStats(ctx context.Context, alias string, clauses []searchquery.WordClause) (searchquery.WordStats, error) {
	if len(clauses) == 0 {
		return searchquery.WordStats{}, nil
	}
	out := searchquery.WordStats{Freq: make(map[string]int64, len(clauses))}
	var missing []searchquery.WordClause
	c := &s.words
	c.mu.Lock()
	for _, cl := range clauses {
		e, hit := c.entries[wordKey{alias, cl.Key}]
		if !hit || !e.reusable(time.Now(), c.ttl) {
			missing = append(missing, cl)
			continue
		}
		out.Freq[cl.Key], out.Records = e.df, max(out.Records, e.records)
	}
	c.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	read, err := s.countWords(ctx, alias, missing)
	if err != nil {
		return searchquery.WordStats{}, err
	}
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries)+len(missing) > maxWordStats {
		c.entries = map[wordKey]cachedFreq{}
	}
	out.Records = read.Records
	for _, cl := range missing {
		out.Freq[cl.Key] = read.Freq[cl.Key]
		if e := (cachedFreq{df: read.Freq[cl.Key], records: read.Records, fetched: now}); e.reusable(now, c.ttl) {
			c.entries[wordKey{alias, cl.Key}] = e
		}
	}
	return out, nil
}

func (s *Service) countWords(ctx context.Context, alias string, clauses []searchquery.WordClause) (searchquery.WordStats, error) {
	body, err := searchquery.WordStatsBody(clauses)
	if err != nil {
		return searchquery.WordStats{}, err
	}
	raw, err := s.run(ctx, alias, body)
	if errors.Is(err, es.ErrNotFound) {
		return searchquery.WordStats{}, nil
	}
	if err != nil {
		return searchquery.WordStats{}, err
	}
	return searchquery.ParseWordStats(clauses, raw)
}
