package vectors

// lowFirst is a min-heap of candidates by rank: container/heap's algorithm on a concrete
// type, so that a push or a pop neither boxes a candidate (an allocation each, a walk
// making thousands) nor calls through an interface. The same comparisons in the same
// order as container/heap, so a walk keeps exactly the nodes it kept before.
type lowFirst []candidate

func (h *lowFirst) push(c candidate) {
	*h = append(*h, c)
	h.up(len(*h) - 1)
}

// pop removes and returns the lowest rank.
func (h *lowFirst) pop() candidate {
	old := *h
	n := len(old) - 1
	old[0], old[n] = old[n], old[0]
	h.down(0, n)
	*h = old[:n]
	return old[n]
}

// replaceTop puts c in the lowest's place (container/heap's Fix at 0).
func (h lowFirst) replaceTop(c candidate) {
	h[0] = c
	if !h.down(0, len(h)) {
		h.up(0)
	}
}

func (h lowFirst) up(j int) {
	for {
		i := (j - 1) / 2
		if i == j || !(h[j].rank < h[i].rank) {
			break
		}
		h[i], h[j] = h[j], h[i]
		j = i
	}
}

func (h lowFirst) down(i0, n int) bool {
	i := i0
	for {
		j1 := 2*i + 1
		if j1 >= n || j1 < 0 {
			break
		}
		j := j1
		if j2 := j1 + 1; j2 < n && h[j2].rank < h[j1].rank {
			j = j2
		}
		if !(h[j].rank < h[i].rank) {
			break
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
	return i > i0
}

// highFirst is a max-heap of candidates by rank: a lowFirst of negated ranks (negation
// is exact, so it orders as rank > rank would).
type highFirst struct{ h lowFirst }

func (h *highFirst) len() int { return len(h.h) }

func (h *highFirst) push(c candidate) { h.h.push(candidate{c.node, -c.rank}) }

func (h *highFirst) pop() candidate {
	c := h.h.pop()
	return candidate{c.node, -c.rank}
}
