package vectors

import "sort"

// candidate is a node and its closeness to the query (higher: closer).
type candidate struct {
	node int32
	rank float32
}

func sortCandidates(c []candidate) {
	sort.Slice(c, func(i, j int) bool {
		if c[i].rank != c[j].rank {
			return c[i].rank > c[j].rank
		}
		return c[i].node < c[j].node
	})
}

// visited marks nodes seen by one search, cleared in time proportional to what it saw.
type visited struct {
	mark []uint32
	gen  uint32
}

func newVisited(n int) *visited { return &visited{mark: make([]uint32, n)} }

func (v *visited) reset() {
	v.gen++
	if v.gen == 0 {
		clear(v.mark)
		v.gen = 1
	}
}

// see marks a node and reports whether it was new.
func (v *visited) see(n int32) bool {
	if v.mark[n] == v.gen {
		return false
	}
	v.mark[n] = v.gen
	return true
}

// greedy walks one layer from ep to the node closest to q.
func greedy(s *scorer, q []float32, qNorm float32, ep int32, next func(int32) []int32) int32 {
	best := s.rank(q, qNorm, ep)
	for moved := true; moved; {
		moved = false
		for _, n := range next(ep) {
			if r := s.rank(q, qNorm, n); r > best {
				best, ep, moved = r, n, true
			}
		}
	}
	return ep
}

// searchLayer is the paper's algorithm 2 on one layer: the ef closest nodes to q that
// accept takes (all, when nil), found by expanding the closest unexpanded candidate
// until it is farther than the farthest of a full result. Nodes accept refuses are
// walked through but not kept, as Lucene's filtered HNSW search does. The result is
// sorted, closest first.
func searchLayer(s *scorer, q []float32, qNorm float32, eps []int32, ef int, next func(int32) []int32,
	v *visited, accept func(int32) bool) []candidate {
	v.reset()
	var cands highFirst
	res := make(lowFirst, 0, ef+1)
	for _, ep := range eps {
		v.see(ep)
		c := candidate{ep, s.rank(q, qNorm, ep)}
		cands.push(c)
		if accept == nil || accept(ep) {
			res.push(c)
		}
	}
	for cands.len() > 0 {
		c := cands.pop()
		if len(res) >= ef && c.rank < res[0].rank {
			break
		}
		for _, n := range next(c.node) {
			if !v.see(n) {
				continue
			}
			r := s.rank(q, qNorm, n)
			if len(res) < ef || r > res[0].rank {
				cands.push(candidate{n, r})
				if accept == nil || accept(n) {
					res.push(candidate{n, r})
					if len(res) > ef {
						res.pop()
					}
				}
			}
		}
	}
	sortCandidates(res)
	return res
}

// MinWalk is the fewest candidates a graph walk keeps, whatever num_candidates asks. At
// ES's default of 1.5 k (15 for 10 hits) a walk of 15 finds 0.92 of the exact 10 on the
// ESCI catalog's vectors and 0.64 on 100,000 generated ones; walks of 50 0.96 and 0.78,
// of 100 0.99 and 0.92, of 200 0.996 and 0.997 (BenchmarkGraphRecallESCI and
// BenchmarkGraphRecall): 200 holds recall@10 above 0.95 on both.
const MinWalk = 200

// Candidates returns the places of the numCands nodes closest to q that accept takes,
// closest first, from a walk that keeps at least MinWalk. With qz the walk compares the
// quantized vectors, and the numCands are those closest by the floats among all it kept.
func (g *Graph) Candidates(sim Similarity, values []float32, qz *Quantized, q []float32, numCands int, accept func(int32) bool) []int32 {
	s := &scorer{sim: sim, dims: len(q), values: values}
	if qz != nil {
		s.qz = qz
		s.qc = qz.query(q)
	}
	found := g.walk(s, q, Magnitude(q), max(numCands, MinWalk), accept)
	if qz != nil {
		found = rerank(&scorer{sim: sim, dims: len(q), values: values, norms: qz.norms}, q, found)
	}
	return found[:min(len(found), numCands)]
}

// rerank orders places by their floats' closeness to q.
func rerank(s *scorer, q []float32, places []int32) []int32 {
	qNorm := Magnitude(q)
	c := make([]candidate, len(places))
	for i, p := range places {
		c[i] = candidate{p, s.rank(q, qNorm, p)}
	}
	sortCandidates(c)
	for i := range c {
		places[i] = c[i].node
	}
	return places
}

// Search returns the places (in the segment's vector column) of the ef nodes closest
// to q that accept takes, closest first. values are the vectors the graph was built
// over, with similarity sim.
func (g *Graph) Search(sim Similarity, values []float32, q []float32, ef int, accept func(int32) bool) []int32 {
	if g.n == 0 {
		return nil
	}
	s := &scorer{sim: sim, dims: len(q), values: values}
	return g.walk(s, q, Magnitude(q), ef, accept)
}

func (g *Graph) walk(s *scorer, q []float32, qNorm float32, ef int, accept func(int32) bool) []int32 {
	ep := g.entry
	for l := g.top; l > 0; l-- {
		ep = greedy(s, q, qNorm, ep, func(n int32) []int32 { return g.neighbours(l, n) })
	}
	v, _ := g.visits.Get().(*visited)
	if v == nil || len(v.mark) != g.n {
		v = newVisited(g.n)
	}
	defer g.visits.Put(v)
	return nodesOf(searchLayer(s, q, qNorm, []int32{ep}, ef, func(n int32) []int32 { return g.neighbours(0, n) }, v, accept))
}

// Exact returns the places of the n vectors closest to q that accept takes (all, when
// nil), closest first, by comparing every one: a segment without a graph, or a filter
// that leaves fewer documents than the candidates wanted.
func Exact(sim Similarity, dims int, values, q []float32, n int, accept func(int32) bool) []int32 {
	s := &scorer{sim: sim, dims: dims, values: values}
	return scanTop(s, q, len(values)/max(dims, 1), n, accept)
}

// scanTop ranks each of count vectors that accept takes and returns the places of the
// n closest, closest first.
func scanTop(s *scorer, q []float32, count, n int, accept func(int32) bool) []int32 {
	qNorm := Magnitude(q)
	res := make(lowFirst, 0, n)
	for p := int32(0); int(p) < count; p++ {
		if accept != nil && !accept(p) {
			continue
		}
		res.offer(candidate{p, s.rank(q, qNorm, p)}, n)
	}
	sortCandidates(res)
	return nodesOf(res)
}

// offer keeps c among the n closest the heap holds.
func (h *lowFirst) offer(c candidate, n int) {
	if len(*h) < n {
		h.push(c)
	} else if c.rank > (*h)[0].rank {
		h.replaceTop(c)
	}
}

// nodesOf are the candidates' nodes, in their order.
func nodesOf(cs []candidate) []int32 {
	out := make([]int32, len(cs))
	for i, c := range cs {
		out[i] = c.node
	}
	return out
}
