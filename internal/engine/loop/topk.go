package loop

import "sort"

// Hit is a match kept by TopK: its score and its number in the reader.
type Hit struct {
	Score float64
	Doc   uint64
}

// worse orders hits as bleve's collector ranks them by score: a lower score, or an equal
// one found later (a higher document number), is worse.
func worse(a, b Hit) bool {
	return a.Score < b.Score || (a.Score == b.Score && a.Doc > b.Doc)
}

// TopK keeps the k best hits of matches added in document order.
type TopK struct {
	k    int
	heap []Hit // the worst on top
}

// NewTopK keeps k hits.
func NewTopK(k int) *TopK { return &TopK{k: k, heap: make([]Hit, 0, min(k, 1024))} }

// Add offers a match; documents come in increasing order, so one that ties with the
// worst kept is worse than it.
func (t *TopK) Add(score float64, doc uint64) {
	if t.k == 0 {
		return
	}
	if len(t.heap) < t.k {
		t.heap = append(t.heap, Hit{score, doc})
		t.up(len(t.heap) - 1)
		return
	}
	if score <= t.heap[0].Score {
		return
	}
	t.heap[0] = Hit{score, doc}
	t.down(0)
}

func (t *TopK) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !worse(t.heap[i], t.heap[p]) {
			return
		}
		t.heap[i], t.heap[p] = t.heap[p], t.heap[i]
		i = p
	}
}

func (t *TopK) down(i int) {
	n := len(t.heap)
	for {
		w, l, r := i, 2*i+1, 2*i+2
		if l < n && worse(t.heap[l], t.heap[w]) {
			w = l
		}
		if r < n && worse(t.heap[r], t.heap[w]) {
			w = r
		}
		if w == i {
			return
		}
		t.heap[i], t.heap[w] = t.heap[w], t.heap[i]
		i = w
	}
}

// Best returns the hits kept, best first.
func (t *TopK) Best() []Hit {
	out := append([]Hit(nil), t.heap...)
	sort.Slice(out, func(i, j int) bool { return worse(out[j], out[i]) })
	return out
}
