package dsl

import (
	"context"
	"math"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/knn"
	"github.com/aislehq/aisle/internal/engine/vectors"
)

// MaxNumCandidates is the most candidates a kNN search may ask for per shard.
const MaxNumCandidates = 10000

// knnQuery is the knn query: the k documents of a reader whose vectors are closest to
// the query vector among the filter's, each scored by the similarity times the boost,
// as Elasticsearch's KnnScoreDocQuery scores them once a shard's kNN search is done.
type knnQuery struct {
	boosted
	req    knn.Request
	filter bq.Query // nil: every document
}

// KnnParams are a knn query's or knn search option's k and num_candidates as given
// (nil: absent).
type KnnParams struct{ K, NumCandidates *int }

func parseKnn(c *Context, body any) (bq.Query, error) {
	m, err := asObject("knn", body)
	if err != nil {
		return nil, err
	}
	if err := checkKeys("knn", m, "field", "query_vector", "k", "num_candidates", "filter", "similarity",
		"rescore_vector"); err != nil {
		return nil, eserr.XContentParse("[knn] unknown field: %v", err)
	}
	field, _ := m["field"].(string)
	if field == "" {
		return nil, causedBy(eserr.XContentParse("[knn] failed to parse field [field]"), eserr.IllegalArgument("[field] is required"))
	}
	p, err := knnParams(m)
	if err != nil {
		return nil, err
	}
	k, nc, err := c.knnSizes(p)
	if err != nil {
		return nil, causedBy(eserr.XContentParse("[1:1] [knn] failed to parse"), err)
	}
	opts, found, err := c.vectorField(field)
	if err != nil || !found {
		return bleve.NewMatchNoneQuery(), err // an unmapped field matches nothing (ES 8.16)
	}
	vec, err := queryVector(m, opts)
	if err != nil {
		return nil, err
	}
	q := &knnQuery{boosted: unboosted(), req: knn.Request{Field: field, Vector: vec, K: k, NumCandidates: nc}}
	if sim, ok := m["similarity"]; ok {
		f, err := num(sim)
		if err != nil {
			return nil, eserr.Parsing("[knn] failed to parse field [similarity]")
		}
		q.req.MinScore = opts.Similarity.FromRaw(opts.Element, opts.Dims, float32(f))
	}
	if q.filter, err = c.knnFilter(m["filter"]); err != nil {
		return nil, err
	}
	return applyBoost(q, m)
}

func knnParams(m map[string]any) (KnnParams, error) {
	var p KnnParams
	for key, dst := range map[string]**int{"k": &p.K, "num_candidates": &p.NumCandidates} {
		v, ok := m[key]
		if !ok {
			continue
		}
		f, err := num(v)
		if err != nil || f != math.Trunc(f) {
			return p, eserr.XContentParse("[knn] failed to parse field [%s]", key)
		}
		n := int(f)
		*dst = &n
	}
	return p, nil
}

// knnSizes applies the knn query's defaults: k is num_candidates, or the search's size;
// num_candidates is 1.5 k, at most 10,000.
func (c *Context) knnSizes(p KnnParams) (k, nc int, err error) {
	switch {
	case p.K != nil:
		k = *p.K
	case p.NumCandidates != nil:
		k = *p.NumCandidates
	default:
		k = c.size()
	}
	return KnnSizes(k, p.NumCandidates)
}

// KnnSizes checks k and num_candidates (nil: 1.5 k, at most 10,000) as ES checks them.
func KnnSizes(k int, numCands *int) (int, int, error) {
	if k < 1 {
		return 0, 0, eserr.IllegalArgument("[k] must be greater than 0")
	}
	nc := int(math.Round(math.Min(1.5*float64(k), MaxNumCandidates)))
	if numCands != nil {
		nc = *numCands
	}
	switch {
	case nc > MaxNumCandidates:
		return 0, 0, eserr.IllegalArgument("[num_candidates] cannot exceed [%d]", MaxNumCandidates)
	case nc < k:
		return 0, 0, eserr.IllegalArgument("[num_candidates] cannot be less than [k]")
	}
	return k, nc, nil
}

func (c *Context) size() int {
	if c.Size > 0 {
		return c.Size
	}
	return 10
}

// vectorField is the field's options, when it is an indexed dense_vector.
func (c *Context) vectorField(field string) (vectors.Options, bool, error) {
	if c.Vector == nil {
		return vectors.Options{}, false, nil
	}
	opts, found, isVector := c.Vector(field)
	switch {
	case !found:
		return opts, false, nil
	case !isVector:
		return opts, false, eserr.New(400, "query_shard_exception", "failed to create query: [knn] queries are only supported on [dense_vector] fields").With("index", c.Index)
	case !opts.Indexed:
		return opts, false, eserr.IllegalArgument("to perform knn search on field [%s], its mapping must have [index] set to [true]", field)
	}
	return opts, true, nil
}

func queryVector(m map[string]any, opts vectors.Options) ([]float32, error) {
	raw, ok := m["query_vector"]
	if !ok {
		return nil, eserr.IllegalArgument("either [query_vector] or [query_vector_builder] must be provided")
	}
	vec, err := vectors.DecodeQuery(opts.Element, raw)
	if err == nil {
		err = opts.CheckQuery(vec)
	}
	if err != nil {
		return nil, eserr.IllegalArgument("%s", err.Error())
	}
	return vec, nil
}

// knnFilter is the knn filter: a query, or an array of them that all must match.
func (c *Context) knnFilter(v any) (bq.Query, error) {
	if v == nil {
		return nil, nil
	}
	list, err := c.parseList(v)
	if err != nil || len(list) == 0 {
		return nil, err
	}
	if len(list) == 1 {
		return list[0], nil
	}
	return bleve.NewConjunctionQuery(list...), nil
}

// Searcher implements bq.Query.
func (q *knnQuery) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (search.Searcher, error) {
	return q.scorer(ctx, r, m, o, 1)
}

func (q *knnQuery) scorer(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions, boost float32) (search.Searcher, error) {
	req := q.req
	if q.filter != nil {
		f, err := docsOf(ctx, q.filter, r, m, o)
		if err != nil {
			return nil, err
		}
		req.Filter = f
	}
	hits, err := knn.Search(r, req)
	if err != nil {
		return nil, eserr.IllegalArgument("%s", err.Error())
	}
	return newHitsSearcher(hits, q.times(boost)), nil
}

// docsOf is the set of the reader's documents a query matches.
func docsOf(ctx context.Context, q bq.Query, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (*roaring.Bitmap, error) {
	s, err := q.Searcher(ctx, r, m, matchOnly(o))
	if err != nil {
		return nil, err
	}
	defer s.Close()
	sctx := &search.SearchContext{DocumentMatchPool: search.NewDocumentMatchPool(s.DocumentMatchPoolSize(), 0)}
	out := roaring.New()
	for {
		dm, err := s.Next(sctx)
		if err != nil || dm == nil {
			return out, err
		}
		out.Add(uint32(dm.IndexInternalID.Value()))
		sctx.DocumentMatchPool.Put(dm)
	}
}

// causedBy sets an error's cause, as ES nests an argument's error in its parse error.
func causedBy(e *eserr.Error, cause error) *eserr.Error {
	if c, ok := cause.(*eserr.Error); ok {
		e.CausedBy = c
	}
	return e
}
