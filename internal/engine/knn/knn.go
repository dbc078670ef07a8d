// Package knn runs a k-nearest-neighbours search over one index reader: per segment,
// the num_candidates closest vectors of the field (from the segment's HNSW graph, or by
// comparing every vector when the segment has none or a filter leaves few documents),
// scored as Elasticsearch scores them, then the best k of the reader, as a shard's
// kNN query keeps them.
package knn

import (
	"fmt"
	"sort"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/segcache"
	"github.com/aislehq/aisle/internal/engine/vectors"
	"github.com/aislehq/aisle/internal/engine/zap"
)

// Request is one kNN search of a field.
type Request struct {
	Field         string
	Vector        []float32
	K             int
	NumCandidates int
	// MinScore drops documents scoring below it (the knn option `similarity`, turned
	// into a score); 0 keeps all.
	MinScore float32
	// Filter holds the reader's documents a filter lets through; nil lets all.
	Filter *roaring.Bitmap
	// Check, when set instead of Filter, tells whether a segment's document passes the
	// filter (a predicate read from columns): a search then asks only about the
	// documents it compares, instead of first finding every document the filter passes.
	Check func(seg int, doc uint64) bool
	// Exact compares every vector, even where a segment has a graph (the benchmark's
	// reference).
	Exact bool
}

// Hit is a document of the reader (its number across the reader's segments) and its
// score.
type Hit struct {
	Doc   uint64
	Score float32
}

// Search returns the request's best k documents of the reader, in document order.
func Search(r index.IndexReader, req Request) ([]Hit, error) {
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return nil, fmt.Errorf("knn: a reader of type %T has no segments", r)
	}
	var all []Hit
	var offset uint64
	for i, ss := range snap.Segments() {
		hits, err := searchSegment(ss, i, offset, req)
		if err != nil {
			return nil, err
		}
		all = append(all, hits...)
		offset += ss.Segment().Count()
	}
	byScore(all)
	all = all[:min(len(all), req.K)]
	sort.Slice(all, func(i, j int) bool { return all[i].Doc < all[j].Doc })
	return all, nil
}

// byScore orders hits by score, the lower document first among equals.
func byScore(hits []Hit) {
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].Doc < hits[j].Doc
	})
}

type cacheKey struct {
	seg   *zap.SegmentBase
	field string
}

// columns keeps each segment's decoded vector column (its graph's upper layers are
// decoded; the rest is read in place).
var columns = segcache.New[cacheKey, *zap.SegmentVectors](10 * time.Minute)

func segmentVectors(ss *scorch.SegmentSnapshot, field string) (*zap.SegmentVectors, error) {
	var sb *zap.SegmentBase
	switch s := ss.Segment().(type) {
	case *zap.Segment:
		sb = &s.SegmentBase
	case *zap.SegmentBase:
		sb = s
	default:
		return nil, nil // a segment of an earlier release's format holds no vectors
	}
	return columns.Get(cacheKey{sb, field}, time.Now(), func() (*zap.SegmentVectors, error) {
		return sb.Vectors(field)
	})
}

func searchSegment(ss *scorch.SegmentSnapshot, seg int, offset uint64, req Request) ([]Hit, error) {
	v, err := segmentVectors(ss, req.Field)
	if err != nil || v == nil {
		return nil, err
	}
	if v.Options.Dims != len(req.Vector) {
		return nil, fmt.Errorf("the query vector has a different number of dimensions [%d] than the document vectors [%d].", len(req.Vector), v.Options.Dims)
	}
	f := segmentFilter{req: req, seg: seg, offset: offset, deleted: ss.Deleted()}
	accept := func(place int32) bool { return f.passes(v.Docs[place]) }
	if !f.filtered() && (f.deleted == nil || f.deleted.IsEmpty()) {
		accept = nil // every vector: no call a node
	}
	shape := segmentShape{graph: v.Graph != nil, quantized: v.Quantized != nil, exact: req.Exact,
		vectors: len(v.Docs), accepted: len(v.Docs), filtered: f.filtered(), numCands: req.NumCandidates}
	if shape.filtered {
		shape.accepted = int(min(uint64(len(v.Docs)), f.count(ss.Segment().Count(), shape.decidedAbove())))
	}
	var places []int32
	switch chooseWay(shape) {
	case walkWay:
		places = v.Graph.Candidates(v.Options.Similarity, v.Values, v.Quantized, req.Vector, req.NumCandidates, accept)
	case scanWay:
		places = v.Quantized.Scan(v.Options.Similarity, v.Values, req.Vector, req.NumCandidates, accept)
	default:
		places = exact(v, req, accept)
	}
	// Only a segment's best k can be among the reader's best k: the rest go unscored.
	places = places[:min(len(places), req.K)]
	qNorm := vectors.Magnitude(req.Vector)
	hits := make([]Hit, 0, len(places))
	for _, p := range places {
		s := score(v, req.Vector, qNorm, p)
		if s >= req.MinScore {
			hits = append(hits, Hit{Doc: offset + uint64(v.Docs[p]), Score: s})
		}
	}
	return hits, nil
}

// score is the place's score, from the magnitude its codes keep where there are codes.
func score(v *zap.SegmentVectors, q []float32, qNorm float32, p int32) float32 {
	if v.Quantized != nil {
		return v.Options.Similarity.ScoreNormed(v.Options.Element, q, v.Vector(int(p)), qNorm, v.Quantized.Norm(p))
	}
	return v.Options.Similarity.Score(v.Options.Element, q, v.Vector(int(p)), qNorm)
}

// exact scores every accepted vector and keeps the num_candidates best places.
func exact(v *zap.SegmentVectors, req Request, accept func(int32) bool) []int32 {
	return vectors.Exact(v.Options.Similarity, v.Options.Dims, v.Values, req.Vector, req.NumCandidates, accept)
}
