package dsl

import (
	"context"
	"sort"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/scoring"
)

// Named is a query given a _name: a hit lists the names of the named queries that match
// it on their own, wherever they sit in the query (ES's MatchedQueriesPhase).
type Named struct {
	Name  string
	Query bq.Query
}

// nameOf reads a query body's _name: at its top, or in the field's object of a query on
// one field ({"match":{"title":{"query":"x","_name":"n"}}}).
func nameOf(body any) (string, bool) {
	m, ok := body.(map[string]any)
	if !ok {
		return "", false
	}
	if n, ok := m["_name"].(string); ok {
		return n, true
	}
	if len(m) == 1 {
		for _, v := range m {
			if inner, ok := v.(map[string]any); ok {
				n, ok := inner["_name"].(string)
				return n, ok
			}
		}
	}
	return "", false
}

// matchedKey is where a hit's matched query names are kept in DocumentMatch.Fields.
const matchedKey = "\x00matched_queries"

// MatchedQueries returns the names a hit of WithNamed's query matched, sorted.
func MatchedQueries(dm *search.DocumentMatch) []string {
	names, _ := dm.Fields[matchedKey].([]string)
	return names
}

// WithNamed returns q, whose matches record which of the named queries match them too.
func WithNamed(q bq.Query, named []Named) bq.Query {
	if len(named) == 0 {
		return q
	}
	last := map[string]bq.Query{}
	for _, n := range named {
		last[n.Name] = n.Query // a name given twice is the last query's, as in ES
	}
	out := make([]Named, 0, len(last))
	for name, nq := range last {
		out = append(out, Named{Name: name, Query: nq})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return &namedQuery{Query: q, named: out}
}

type namedQuery struct {
	bq.Query
	named []Named
}

// Searcher implements bq.Query: q's searcher, with a matching-only searcher per named
// query stepped along its matches.
func (q *namedQuery) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (search.Searcher, error) {
	inner, err := q.Query.Searcher(ctx, r, m, o)
	if err != nil {
		return nil, err
	}
	s := &namedSearcher{Searcher: inner, names: make([]string, len(q.named))}
	for i, n := range q.named {
		ns, err := n.Query.Searcher(ctx, r, m, matchOnly(o))
		if err != nil {
			_ = s.Close()
			return nil, err
		}
		s.names[i] = n.Name
		s.followers = append(s.followers, scoring.NewFollower(ns))
	}
	return s, nil
}

type namedSearcher struct {
	search.Searcher
	names     []string
	followers []*scoring.Follower
}

// Next implements search.Searcher.
func (s *namedSearcher) Next(ctx *search.SearchContext) (*search.DocumentMatch, error) {
	dm, err := s.Searcher.Next(ctx)
	return s.mark(ctx, dm, err)
}

// Advance implements search.Searcher.
func (s *namedSearcher) Advance(ctx *search.SearchContext, id index.IndexInternalID) (*search.DocumentMatch, error) {
	dm, err := s.Searcher.Advance(ctx, id)
	return s.mark(ctx, dm, err)
}

func (s *namedSearcher) mark(ctx *search.SearchContext, dm *search.DocumentMatch, err error) (*search.DocumentMatch, error) {
	if err != nil || dm == nil {
		return dm, err
	}
	var names []string
	for i, f := range s.followers {
		on, err := f.On(ctx, dm.IndexInternalID)
		if err != nil {
			return nil, err
		}
		if on {
			names = append(names, s.names[i])
		}
	}
	if names != nil {
		dm.Fields = map[string]any{matchedKey: names}
	}
	return dm, nil
}

// Close implements search.Searcher.
func (s *namedSearcher) Close() error {
	err := s.Searcher.Close()
	for _, f := range s.followers {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// DocumentMatchPoolSize implements search.Searcher.
func (s *namedSearcher) DocumentMatchPoolSize() int {
	n := s.Searcher.DocumentMatchPoolSize()
	for _, f := range s.followers {
		n += f.DocumentMatchPoolSize()
	}
	return n
}
