package knn

import "github.com/aislehq/aisle/internal/engine/vectors"

// way is how a segment's candidates are found.
type way int

const (
	exactWay way = iota // every accepted vector's floats compared: exact
	scanWay             // every accepted vector's int8 codes, the best ranked again by the floats
	walkWay             // the segment's HNSW graph
)

func (w way) String() string { return [...]string{"exact", "scan", "walk"}[w] }

// segmentShape is what the choice of a way depends on.
type segmentShape struct {
	graph, quantized bool // the segment has a graph; int8 codes of its vectors
	exact            bool // the request asks for exact search
	vectors          int  // the segment's vectors
	filtered         bool
	accepted         int // of the vectors, how many the filter may let through
	numCands         int
}

// chooseWay picks the cheapest way that finds what a walk would. Exact search where there
// is no graph or it is asked for; where the segment has no more vectors than a walk keeps
// (a walk would visit about as many, and comparing all cannot miss one); and where a
// filter lets through no more than the candidates wanted (Lucene's filtered kNN makes the
// same choice). A scan of codes where it costs less than a walk (vectors.ScanCheaper),
// which holds for the small segments a catalog keeps between merges.
func chooseWay(s segmentShape) way {
	switch {
	case !s.graph || s.exact || s.vectors <= vectors.MinWalk:
		return exactWay
	case s.filtered && s.accepted <= s.numCands:
		return exactWay
	case s.quantized && vectors.ScanCheaper(s.accepted, s.numCands):
		return scanWay
	}
	return walkWay
}

// decidedAbove is a count of accepted vectors above which chooseWay's answer no longer
// depends on it: more than the candidates wanted, and more than a scan is cheaper for.
func (s segmentShape) decidedAbove() int {
	return max(s.numCands, vectors.ScanLimit(s.numCands))
}
