// Package search runs searches and field listings of SearchIndexes against
// Elasticsearch: internal/searchquery builds and shapes, this package does the I/O, with a
// short-lived cache of each index's mapping.
package search

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
	"golang.org/x/sync/singleflight"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/merch"
	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/internal/signals"
)

// DefaultSchemaTTL is how long a mapping is reused. A field seen for the first time is
// treated by its value's type until then (see searchquery.Schema), which gives the same
// query for strings and numbers; a search sorting on a field the cached mapping lacks
// reads it again (schemaFor).
const DefaultSchemaTTL = 5 * time.Second

// Service searches indexes through their aliases.
type Service struct {
	es      *elasticsearch.TypedClient
	ttl     time.Duration
	mu      sync.Mutex
	schemas map[string]cachedSchema
	group   singleflight.Group
	stats   statsCache
	words   wordStatsCache
	rules   *merch.Service
	signals *signals.Reader
}

type cachedSchema struct {
	schema  searchquery.Schema
	fetched time.Time
}

// New returns a service on client.
func New(client *elasticsearch.TypedClient, opts ...Option) *Service {
	s := &Service{es: client, ttl: DefaultSchemaTTL, schemas: map[string]cachedSchema{},
		stats: statsCache{ttl: DefaultStatsTTL, entries: map[statsKey]cachedStats{}},
		words: wordStatsCache{ttl: DefaultWordStatsTTL, entries: map[wordKey]cachedFreq{}}}
	o := options{clock: time.Now}
	for _, opt := range opts {
		opt(&o)
	}
	s.rules = merch.New(client, s, o.clock)
	s.signals = signals.NewReader(client)
	return s
}

// Search runs req under access against the index behind alias. Invalid requests fail
// with searchquery.ErrInvalid; an index that has no physical index yet has no hits. With
// matchingStrategy all, a search that matches nothing is run again without its last
// word until one matches or one word is left; the response names the words dropped.
// With explain's objectID, it says why that record is not on the page (whynot.go).
func (s *Service) Search(ctx context.Context, alias string, access searchquery.Access, req searchquery.Request) (searchquery.Response, error) {
	start := time.Now()
	j, err := s.prepare(ctx, alias, access, req, nil)
	if err != nil {
		return searchquery.Response{}, err
	}
	s.driveWhyNot(ctx, []*search{j}, access, req)
	res, err := result(j)
	res.Took = time.Since(start).Milliseconds()
	return res, err
}

// prepare decides a search once: it validates the request (searchquery.Decide), then
// adds what the signals (learning.go) and the rules (merch.Service.ForSearch, as over
// sees them; nil: the index's) change in it and what its ranking reads of the index (the
// bounds of quantized fields, the words' frequencies). Every search goes through here,
// each query of a multi-search and both sides of a preview too.
func (s *Service) prepare(ctx context.Context, alias string, access searchquery.Access, req searchquery.Request, over *merch.Overlay) (*search, error) {
	schema, err := s.schemaFor(ctx, alias, searchquery.SortPaths(req, access))
	if err != nil {
		return nil, err
	}
	spec, err := searchquery.Decide(req, access, schema)
	if err != nil {
		return nil, err
	}
	l, err := s.learn(ctx, alias, access, req)
	if err != nil {
		return nil, err
	}
	out, err := s.rules.ForSearch(ctx, alias, access, req, schema, over)
	if err != nil {
		return nil, err
	}
	spec, out = spec.WithQuery(out.Query), out.Covering(spec.Page)
	stats, err := s.fieldStats(ctx, alias, spec.StatsFields())
	if err != nil {
		return nil, err
	}
	words, err := s.wordStats(ctx, alias, spec.WordClauses())
	if err != nil {
		return nil, err
	}
	spec = spec.With(searchquery.Inputs{Stats: stats, RuleChanges: out.RuleChanges, Signals: l.signals, Words: words})
	spec.ReRank = l.rerank
	return newJob(alias, spec, out)
}

func (s *Service) run(ctx context.Context, alias string, body []byte) ([]byte, error) {
	raw, err := es.ReadBody(s.es.Search().Index(alias).TypedKeys(false).Raw(bytes.NewReader(body)).Perform(ctx))
	return raw, searchError(alias, err)
}

// searchError words the failure of a search of alias: the backend's 400 is the
// request's problem, anything else the backend's.
func searchError(alias string, err error) error {
	if refusedSearch(err) {
		// searchquery.Decide checks values against the mapping it read; the mapping may have
		// changed since (a rebuild, a first value). The backend's text is its own.
		return fmt.Errorf("%w: a filter, sort or facet does not fit its field as the index maps it now", searchquery.ErrInvalid)
	}
	if err != nil {
		return fmt.Errorf("searching %s: %w", alias, err)
	}
	return nil
}

// refusedSearch reports a backend's 400 to a search.
func refusedSearch(err error) bool {
	var esErr *types.ElasticsearchError
	return errors.As(err, &esErr) && esErr.Status == http.StatusBadRequest
}

// Schema returns the mapping of the index behind alias, from the cache when fresh.
// Concurrent misses share one request.
func (s *Service) Schema(ctx context.Context, alias string) (searchquery.Schema, error) {
	return s.schemaFor(ctx, alias, nil)
}

// schemaFor is Schema, read again when the cached mapping lacks one of paths: a field's
// first value maps it, and a mapping from before that write would leave the field's sort
// out of every search for the cache's life, although the write was acknowledged. A
// search sorting on a field no record holds reads the mapping each time.
func (s *Service) schemaFor(ctx context.Context, alias string, paths []string) (searchquery.Schema, error) {
	if c, ok := s.cachedSchema(alias); ok && !c.Lacks(paths) {
		return c, nil
	}
	return s.loadSchema(ctx, alias)
}

func (s *Service) cachedSchema(alias string) (searchquery.Schema, bool) {
	s.mu.Lock()
	c, ok := s.schemas[alias]
	s.mu.Unlock()
	return c.schema, ok && time.Since(c.fetched) < s.ttl
}

func (s *Service) loadSchema(ctx context.Context, alias string) (searchquery.Schema, error) {
	v, err, _ := s.group.Do(alias, func() (any, error) {
		schema, err := s.fetchSchema(ctx, alias)
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		s.schemas[alias] = cachedSchema{schema: schema, fetched: time.Now()}
		s.mu.Unlock()
		return schema, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(searchquery.Schema), nil
}

func (s *Service) fetchSchema(ctx context.Context, alias string) (searchquery.Schema, error) {
	raw, err := es.ReadBody(s.es.Indices.GetMapping().Index(alias).Perform(ctx))
	switch {
	case errors.Is(err, es.ErrNotFound):
		return searchquery.Schema{}, nil
	case err != nil:
		return nil, fmt.Errorf("reading the mapping of %s: %w", alias, err)
	}
	return searchquery.ParseMapping(raw)
}
