package dsl

import (
	"context"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/scoring"
)

// boolQuery is Elasticsearch's bool query, Lucene's BooleanQuery: it scores the sum of its
// must clauses and of the should clauses that match, with neither a coordination factor
// nor a query norm; filter and must_not clauses never score.
type boolQuery struct {
	boosted
	must, should, filter, mustNot []bq.Query
	// minShould is how many should clauses must match: at least one when there is
	// neither must nor filter, as in Lucene.
	minShould int
	// ranges are range filters checked per candidate of the must clauses from columns
	// (see rangeFilter); filter holds the others.
	ranges []columnRange
	// match finds the same documents with bleve's searchers, for searches that read no
	// scores (size 0, counts, aggregation filters).
	match *bq.BooleanQuery
}

func parseBool(c *Context, body any) (bq.Query, error) {
	m, err := asObject("bool", body)
	if err != nil {
		return nil, err
	}
	if err := checkKeys("bool", m, "must", "filter", "should", "must_not", "minimum_should_match", "adjust_pure_negative"); err != nil {
		return nil, err
	}
	q := &boolQuery{boosted: unboosted()}
	for _, part := range []struct {
		key string
		dst *[]bq.Query
	}{{"must", &q.must}, {"filter", &q.filter}, {"should", &q.should}, {"must_not", &q.mustNot}} {
		if *part.dst, err = c.parseList(m[part.key]); err != nil {
			return nil, err
		}
	}
	if len(q.must)+len(q.filter)+len(q.should)+len(q.mustNot) == 0 {
		return applyBoost(bleve.NewMatchAllQuery(), m) // ES: a bool without clauses is match_all
	}
	if q.minShould, err = q.minimumShould(m); err != nil {
		return nil, err
	}
	if q.minShould > len(q.should) {
		return bleve.NewMatchNoneQuery(), nil
	}
	if len(q.must)+len(q.filter)+len(q.should) == 0 {
		// ES adds a match_all filter to a bool of must_not clauses only (its score is 0);
		// without it, as Lucene's, such a bool matches nothing.
		if adjust, ok := m["adjust_pure_negative"].(bool); ok && !adjust {
			return bleve.NewMatchNoneQuery(), nil
		}
		q.filter = []bq.Query{bleve.NewMatchAllQuery()}
	}
	if len(q.must) > 0 {
		q.ranges, q.filter = splitRanges(q.filter)
	}
	q.match = q.matching()
	return applyBoost(q, m)
}

func (c *Context) parseList(raw any) ([]bq.Query, error) {
	var out []bq.Query
	for _, r := range list(raw) {
		q, err := c.parse(r)
		if err != nil {
			return nil, err
		}
		out = append(out, q)
	}
	return out, nil
}

// minimumShould reads minimum_should_match (ES's Queries.applyMinimumShouldMatch sets
// only a positive one); with neither must nor filter clauses one should clause is
// required anyway, as Lucene requires of a pure disjunction.
func (q *boolQuery) minimumShould(m map[string]any) (int, error) {
	if len(q.should) == 0 {
		return 0, nil
	}
	min := 0
	if msm, ok := m["minimum_should_match"]; ok {
		k, err := minimumShouldMatch(msm, len(q.should))
		if err != nil {
			return 0, err
		}
		min = max(k, 0)
	}
	if len(q.must)+len(q.filter) == 0 {
		min = max(min, 1)
	}
	return min, nil
}

// matching builds the bleve query with the same matches.
func (q *boolQuery) matching() *bq.BooleanQuery {
	b := bleve.NewBooleanQuery()
	if len(q.must) > 0 {
		b.AddMust(q.must...)
	}
	if len(q.filter) == 1 {
		b.AddFilter(q.filter[0])
	} else if len(q.filter) > 1 {
		b.AddFilter(bleve.NewConjunctionQuery(q.filter...))
	}
	if len(q.mustNot) > 0 {
		b.AddMustNot(q.mustNot...)
	}
	switch {
	case q.minShould > 0 && len(q.must)+len(q.filter) > 0:
		// Required beside the others: bleve's BooleanSearcher reads the should clauses'
		// minimum from their searcher, which a disjunction of terms without scores loses
		// (bleve makes it one term searcher, of minimum 0), and would match without them.
		d := bleve.NewDisjunctionQuery(q.should...)
		d.SetMin(float64(q.minShould))
		b.AddMust(d)
	case len(q.should) > 0:
		b.AddShould(q.should...)
		b.SetMinShould(float64(q.minShould))
	}
	if len(q.must) == 0 && (len(q.should) == 0 || q.minShould == 0) {
		b.AddMust(bleve.NewMatchAllQuery())
	}
	return b
}

// Searcher implements bq.Query.
func (q *boolQuery) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (search.Searcher, error) {
	return searcherOf(ctx, q, r, m, o, func() (search.Searcher, error) {
		s, err := q.match.Searcher(ctx, r, m, o)
		if err != nil {
			return nil, err
		}
		return rangeFilter(ctx, r, m, q.ranges, s)
	})
}

// scorer composes the clauses as Lucene's Boolean2ScorerSupplier does.
func (q *boolQuery) scorer(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions, boost float32) (search.Searcher, error) {
	b := q.times(boost)
	main, err := q.required(ctx, r, m, o, b)
	if err != nil {
		return nil, err
	}
	opt, err := q.optional(ctx, r, m, o, b)
	if err != nil {
		closeAll([]search.Searcher{main})
		return nil, err
	}
	switch {
	case main == nil:
		main = opt
	case opt == nil:
	case q.minShould > 0:
		main = scoring.NewConjunction([]search.Searcher{main, opt}, 2)
	default:
		main = scoring.NewOptional(main, opt)
	}
	if len(q.mustNot) > 0 {
		excl, err := matchers(ctx, q.mustNot, r, m, o)
		if err != nil {
			closeAll([]search.Searcher{main})
			return nil, err
		}
		main = scoring.NewExclusion(main, disjunction(excl, 1, nil))
	}
	return rangeFilter(ctx, r, m, q.ranges, main)
}

// required is the conjunction of the must clauses (scoring) and the filters (not).
func (q *boolQuery) required(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions, boost float32) (search.Searcher, error) {
	subs, err := scorers(ctx, q.must, r, m, o, boost)
	if err != nil {
		return nil, err
	}
	filters, err := matchers(ctx, q.filter, r, m, o)
	if err != nil {
		closeAll(subs)
		return nil, err
	}
	switch {
	case len(subs)+len(filters) == 0:
		return nil, nil
	case len(filters) == 0 && len(subs) == 1:
		return subs[0], nil
	case len(subs) == 0 && len(filters) == 1:
		return scoring.NewConstant(filters[0], 0), nil
	}
	return scoring.NewConjunction(append(subs, filters...), len(subs)), nil
}

// optional is the disjunction of the should clauses, their scores summed.
func (q *boolQuery) optional(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions, boost float32) (search.Searcher, error) {
	subs, err := scorers(ctx, q.should, r, m, o, boost)
	if err != nil || len(subs) == 0 {
		return nil, err
	}
	return disjunction(subs, q.minShould, scoring.Sum), nil
}

// disjunction is the disjunction of subs, or the one sub when that is all it would be.
func disjunction(subs []search.Searcher, min int, combine scoring.Combine) search.Searcher {
	if len(subs) == 1 && min <= 1 {
		return subs[0]
	}
	return scoring.NewDisjunction(subs, min, combine)
}

// scorers are the scoring searchers of qs under boost.
func scorers(ctx context.Context, qs []bq.Query, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions, boost float32) ([]search.Searcher, error) {
	out := make([]search.Searcher, 0, len(qs))
	for _, c := range qs {
		s, err := scorerOf(ctx, c, r, m, o, boost)
		if err != nil {
			closeAll(out)
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// matchers are the searchers of qs that only match.
func matchers(ctx context.Context, qs []bq.Query, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) ([]search.Searcher, error) {
	out := make([]search.Searcher, 0, len(qs))
	for _, c := range qs {
		s, err := c.Searcher(ctx, r, m, matchOnly(o))
		if err != nil {
			closeAll(out)
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func closeAll(ss []search.Searcher) {
	for _, s := range ss {
		if s != nil {
			_ = s.Close()
		}
	}
}

// newBoolQuery is a bool query of must and should clauses, as a match query builds.
func newBoolQuery(must, should []bq.Query, minShould int) *boolQuery {
	q := &boolQuery{boosted: unboosted(), must: must, should: should, minShould: minShould}
	if len(must) == 0 {
		q.minShould = max(minShould, 1)
	}
	q.match = q.matching()
	return q
}
