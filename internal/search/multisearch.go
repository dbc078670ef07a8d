package search

import (
	"context"
	"time"

	"github.com/aislehq/aisle/internal/searchquery"
)

// Query is one search of a multi-search: Request under Access against the index behind
// Alias.
type Query struct {
	Alias   string
	Access  searchquery.Access
	Request searchquery.Request
}

// Result is the answer of one query, or why it failed.
type Result struct {
	Response searchquery.Response
	Err      error
}

// MultiSearch runs queries together, each prepared as Search prepares it, their rounds
// sharing one _msearch (a query whose rules promote records sends its pinned search in
// them too); the results are in the order of the queries. A query that fails
// (invalid, or refused by the backend) fails alone. Took is the time of the whole.
func (s *Service) MultiSearch(ctx context.Context, queries []Query) []Result {
	start := time.Now()
	out := make([]Result, len(queries))
	jobs := make([]*search, len(queries))
	var running []*search
	for i, q := range queries {
		if q.Request.Explain.ObjectID != "" {
			out[i].Err = errWhyNotAlone
			continue
		}
		j, err := s.prepare(ctx, q.Alias, q.Access, q.Request, nil)
		if err != nil {
			out[i].Err = err
			continue
		}
		jobs[i], running = j, append(running, j)
	}
	drive(ctx, s, running)
	took := time.Since(start).Milliseconds()
	for i, j := range jobs {
		if j != nil {
			out[i].Response, out[i].Err = result(j)
			out[i].Response.Took = took
		}
	}
	return out
}
