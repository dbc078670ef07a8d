package vectors

// Scan returns the places of the numCands vectors closest to q that accept takes,
// closest first, from a comparison of every vector's codes rather than a graph walk:
// the max(numCands, MinWalk) closest by the codes are ranked again by the floats, as a
// walk's candidates are. A walk keeping MinWalk candidates compares most of a small
// segment's nodes anyway, each through a heap and a random read; a scan reads the codes
// in order, so below a size (ScanCheaper) it costs less and cannot miss a node the
// codes rank high.
func (qz *Quantized) Scan(sim Similarity, values, q []float32, numCands int, accept func(int32) bool) []int32 {
	s := &scorer{sim: sim, dims: len(q), values: values, qz: qz}
	s.qc = qz.query(q)
	found := scanTop(s, q, len(qz.sums), max(numCands, MinWalk), accept)
	found = rerank(&scorer{sim: sim, dims: len(q), values: values, norms: qz.norms}, q, found)
	return found[:min(len(found), numCands)]
}

// scanPerCandidate is how many vectors a scan of codes compares for the CPU of a graph
// walk, per candidate the walk keeps: BenchmarkWalkOrScan at 200 candidates (512
// dimensions, m 16) put a scan at 0.60x a walk's CPU on 1,500 vectors, 0.85x on 6,000 and
// 1.30x on 12,000, so they cross near 8,000 = 40 × 200.
const scanPerCandidate = 40

// ScanCheaper reports whether comparing the codes of count vectors costs less than a
// walk keeping numCands candidates (at least MinWalk).
func ScanCheaper(count, numCands int) bool {
	return count <= scanPerCandidate*max(numCands, MinWalk)
}
