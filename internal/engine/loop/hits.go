package loop

// Hits matches documents found before the loop runs (a kNN search's top k), each with
// its own score: the loop then runs a hybrid query's words and its kNN clause in one
// pass, instead of sending the whole query to bleve for one clause it cannot plan.
type Hits struct {
	// Docs are the documents of each segment of the reader, in order, by their number
	// in the segment; Scores are their scores, index for index.
	Docs   [][]uint32
	Scores [][]float64
}

// HitsOf splits documents numbered across the reader (a segment's first document
// follows the previous segment's last, as bleve numbers them), in order, into the
// segments of counts.
func HitsOf(counts []uint64, docs []uint64, scores []float64) *Hits {
	h := &Hits{Docs: make([][]uint32, len(counts)), Scores: make([][]float64, len(counts))}
	seg, offset := 0, uint64(0)
	for i, d := range docs {
		for seg < len(counts) && d >= offset+counts[seg] {
			offset += counts[seg]
			seg++
		}
		if seg == len(counts) {
			break // past the reader's documents: none of its segments holds it
		}
		h.Docs[seg] = append(h.Docs[seg], uint32(d-offset))
		h.Scores[seg] = append(h.Scores[seg], scores[i])
	}
	return h
}

type hitsEval struct {
	s      *segment
	docs   []uint32
	scores []float64
	i      int
}

func (h *Hits) open(s *segment) evaluator {
	if s.index >= len(h.Docs) || len(h.Docs[s.index]) == 0 {
		return nothing{}
	}
	return &hitsEval{s: s, docs: h.Docs[s.index], scores: h.Scores[s.index]}
}

func (e *hitsEval) eval(base uint32, b *block) {
	b.clear()
	end := base + window
	for ; e.i < len(e.docs); e.i++ {
		d := e.docs[e.i]
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
