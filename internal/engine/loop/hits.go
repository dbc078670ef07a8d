package loop

import "sort"

// Hits matches documents found before the loop runs (a kNN search's top k), each with
// its own score: the loop then runs a hybrid query's words and its kNN clause in one
// pass, instead of sending the whole query to bleve for one clause it cannot plan.
type Hits struct {
	// Docs are the documents by their number across the reader (a segment's first
	// follows the previous segment's last, as bleve numbers them), in order; Scores are
	// their scores, index for index.
	Docs   []uint64
	Scores []float64
}

type hitsEval struct {
	s      *segment
	docs   []uint64
	scores []float64
	i      int
}

// open takes the hits of s: those numbered from its offset to its offset plus count.
func (h *Hits) open(s *segment) evaluator {
	from := sort.Search(len(h.Docs), func(i int) bool { return h.Docs[i] >= s.offset })
	to := sort.Search(len(h.Docs), func(i int) bool { return h.Docs[i] >= s.offset+s.count })
	if from == to {
		return nothing{}
	}
	return &hitsEval{s: s, docs: h.Docs[from:to], scores: h.Scores[from:to]}
}

func (e *hitsEval) eval(base uint32, b *block) {
	b.clear()
	end := base + window
	for ; e.i < len(e.docs); e.i++ {
		d := uint32(e.docs[e.i] - e.s.offset)
		if d >= end {
			return
		}
		if d >= base && !e.s.isDeleted(d) {
			b.set(d - base)
			b.score[d-base] = e.scores[e.i]
		}
	}
}

func (e *hitsEval) release() {}
