package vectors

// Scan returns the places of the numCands vectors closest to q that accept takes,
// closest first, from a comparison of every vector's codes rather than a graph walk:
// the max(numCands, MinWalk) closest by the codes are ranked again by the floats, as a
// walk's candidates are. A walk keeping MinWalk candidates compares most of a small
// segment's nodes anyway, each through a heap and a random read; a scan reads the codes
// in order, so below a size (ScanCheaper) it costs less and cannot miss a node the
// codes rank high.
func (qz *Quantized) Scan(sim Similarity, values, q []float32, numCands int, accept func(int32) bool) []int32 {
	var found []int32
	if sim == L2Norm {
		s := &scorer{sim: sim, dims: len(q), values: values, qz: qz}
		s.qc = qz.query(q)
		found = scanTop(s, q, len(qz.sums), max(numCands, MinWalk), accept)
	} else {
		found = qz.scanDots(sim, q, max(numCands, MinWalk), accept)
	}
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
func ScanCheaper(count, numCands int) bool { return count <= ScanLimit(numCands) }

// ScanLimit is the most vectors a scan is cheaper for (see ScanCheaper).
func ScanLimit(numCands int) int { return scanPerCandidate * max(numCands, MinWalk) }

// scanBatch is how many vectors' dot products a scan computes in one call.
const scanBatch = 256

// scanDots is scanTop over the codes for the dot-product similarities, the dot
// products of a batch of accepted vectors computed at once (dotRows): the same ranks,
// offered to the heap in the same order, so the same places as scanTop's.
func (qz *Quantized) scanDots(sim Similarity, q []float32, n int, accept func(int32) bool) []int32 {
	qc, qNorm := qz.query(q), Magnitude(q)
	res := make(lowFirst, 0, n)
	var rows, dots [scanBatch]int32
	count := int32(len(qz.sums))
	for p := int32(0); p < count; {
		batch := rows[:0]
		for ; p < count && len(batch) < scanBatch; p++ {
			if accept == nil || accept(p) {
				batch = append(batch, p)
			}
		}
		qz.dotRows(&qc, batch, dots[:len(batch)])
		for j, row := range batch {
			res.offer(candidate{row, qz.rankOfDot(sim, &qc, qNorm, row, dots[j])}, n)
		}
	}
	sortCandidates(res)
	return nodesOf(res)
}

// dotRows sets out[j] to dotCodes of the query and vector rows[j]: with AVX-512 VNNI all
// in one call where the dimensions are whole VNNI steps, else one at a time.
func (qz *Quantized) dotRows(qc *codedQuery, rows, out []int32) {
	if len(rows) == 0 {
		return
	}
	if !useVNNI || qz.dims%64 != 0 {
		for j, row := range rows {
			out[j] = dotCodes(qc.signed, qc.unsigned, qz.codesOf(row), qz.codeSum(row))
		}
		return
	}
	codes := View8(qz.codes)
	dotU8I8VNNIRows(&qc.unsigned[0], &codes[0], qz.dims, &rows[0], len(rows), &out[0])
	for j, row := range rows {
		out[j] -= 128 * qz.codeSum(row) // Σab = Σ au·b - 128 Σb, as dotCodes
	}
}
