package vectors

import (
	"encoding/binary"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"sync"
)

// Graph is a segment's HNSW graph (Malkov and Yashunin) over its vectors, numbered by
// their place in the segment's vector column: layer 0 links every node to at most 2*M
// neighbours, each upper layer a sparser sample of nodes to at most M. Layer 0, almost
// all of it, is a fixed-size table (a count and 2*M slots per node) read in place from
// the segment; the upper layers are decoded.
type Graph struct {
	m      int
	entry  int32
	top    int                 // the entry's layer
	layer0 []int32             // n * (1 + 2m)
	upper  []map[int32][]int32 // upper[l-1]: the nodes of layer l and their neighbours
	n      int
	visits sync.Pool // of *visited, one per concurrent search
}

// Nodes is the number of vectors the graph links.
func (g *Graph) Nodes() int { return g.n }

func (g *Graph) neighbours(l int, node int32) []int32 {
	if l == 0 {
		row := g.layer0[int(node)*(1+2*g.m):]
		return row[1 : 1+row[0]]
	}
	return g.upper[l-1][node]
}

// scorer ranks vectors for one similarity: higher is closer. Cosine compares
// directions (the dot product over both magnitudes), l2_norm the negated squared
// distance, the others the dot product: each orders vectors as its score does.
type scorer struct {
	sim    Similarity
	dims   int
	values []float32               // the vectors, one after another; or
	rows   func(i int32) []float32 // each vector, where they are not one array
	norms  []float32               // cosine only
	// qz, when set, ranks by the query's codes qc instead of floats.
	qz *Quantized
	qc codedQuery
}

func newScorer(sim Similarity, dims, n int, rows func(int32) []float32) *scorer {
	s := &scorer{sim: sim, dims: dims, rows: rows}
	if sim == Cosine {
		s.norms = make([]float32, n)
		for i := range s.norms {
			s.norms[i] = Magnitude(s.vec(int32(i)))
		}
	}
	return s
}

func (s *scorer) vec(i int32) []float32 {
	if s.rows != nil {
		return s.rows(i)
	}
	return s.values[int(i)*s.dims : (int(i)+1)*s.dims]
}

// rank is node i's closeness to q (whose magnitude is qNorm, for cosine).
func (s *scorer) rank(q []float32, qNorm float32, i int32) float32 {
	if s.qz != nil {
		return s.qz.rank(s.sim, &s.qc, qNorm, i)
	}
	v := s.vec(i)
	switch s.sim {
	case L2Norm:
		return -SquareDistance(q, v)
	case Cosine:
		// A search's scorer has norms only when the segment keeps them (the int8 codes'),
		// a build's all of them.
		vNorm := s.norm(i)
		if s.norms == nil {
			vNorm = float32(math.Sqrt(float64(fastDot(v, v))))
		}
		if vNorm == 0 || qNorm == 0 {
			return -1
		}
		return fastDot(q, v) / (qNorm * vNorm)
	}
	return fastDot(q, v)
}

func (s *scorer) norm(i int32) float32 {
	if s.norms == nil {
		return 0
	}
	return s.norms[i]
}

// BuildGraph links n vectors (o.Dims each, row gives the i-th, which stays valid while
// the graph is built: a merge reads them from its segments' memory, not from a copy)
// into a graph with o's M and ef_construction. Levels are drawn from a fixed seed, so a
// segment's graph is the same each time it is built from the same vectors.
func BuildGraph(o Options, n int, row func(int32) []float32) *Graph {
	b := &builder{
		s: newScorer(o.Similarity, o.Dims, n, row), m: o.M, ef: max(o.EfConstruction, o.M),
		rng: rand.New(rand.NewPCG(42, uint64(n))), mL: 1 / math.Log(float64(max(o.M, 2))),
	}
	b.links = make([][][]int32, n)
	b.visit = newVisited(n)
	for i := 0; i < n; i++ {
		b.insert(int32(i))
	}
	return b.graph()
}

type builder struct {
	s     *scorer
	m, ef int
	rng   *rand.Rand
	mL    float64
	links [][][]int32 // per node, per layer
	entry int32
	top   int
	visit *visited
}

func (b *builder) insert(i int32) {
	level := int(math.Floor(-math.Log(1-b.rng.Float64()) * b.mL))
	b.links[i] = make([][]int32, level+1)
	if i == 0 {
		b.entry, b.top = 0, level
		return
	}
	q, qNorm := b.s.vec(i), b.s.norm(i)
	ep := b.entry
	for l := b.top; l > level; l-- {
		ep = greedy(b.s, q, qNorm, ep, func(n int32) []int32 { return b.links[n][l] })
	}
	for l := min(level, b.top); l >= 0; l-- {
		next := func(n int32) []int32 { return b.links[n][l] }
		found := searchLayer(b.s, q, qNorm, []int32{ep}, b.ef, next, b.visit, nil)
		limit := b.m
		if l == 0 {
			limit = 2 * b.m
		}
		chosen := b.selectNeighbours(found, b.m)
		b.links[i][l] = chosen
		for _, c := range chosen {
			b.connect(c, i, l, limit)
		}
		ep = found[0].node
	}
	if level > b.top {
		b.entry, b.top = i, level
	}
}

// connect adds i to c's neighbours at layer l; past limit the farthest goes (the
// diversity heuristic, rerun on every overflow, cost a build more than its searches).
func (b *builder) connect(c, i int32, l, limit int) {
	nb := append(b.links[c][l], i)
	if len(nb) > limit {
		q, qNorm := b.s.vec(c), b.s.norm(c)
		worst, worstRank := 0, float32(math.Inf(1))
		for j, x := range nb {
			if r := b.s.rank(q, qNorm, x); r < worstRank {
				worst, worstRank = j, r
			}
		}
		nb[worst] = nb[len(nb)-1]
		nb = nb[:len(nb)-1]
	}
	b.links[c][l] = nb
}

// selectNeighbours is the paper's heuristic (algorithm 4): from the closest on, a
// candidate is kept when it is closer to the node than to every neighbour kept, which
// spreads the links over directions; the places left are filled with the closest of
// those passed over.
func (b *builder) selectNeighbours(cands []candidate, limit int) []int32 {
	out := make([]int32, 0, limit)
	var skipped []int32
	for _, c := range cands {
		if len(out) == limit {
			break
		}
		keep := true
		v, vNorm := b.s.vec(c.node), b.s.norm(c.node)
		for _, o := range out {
			if b.s.rank(v, vNorm, o) > c.rank {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, c.node)
		} else {
			skipped = append(skipped, c.node)
		}
	}
	for _, s := range skipped {
		if len(out) == limit {
			break
		}
		out = append(out, s)
	}
	return out
}

func (b *builder) graph() *Graph {
	n := len(b.links)
	g := &Graph{m: b.m, entry: b.entry, top: b.top, n: n, layer0: make([]int32, n*(1+2*b.m))}
	g.upper = make([]map[int32][]int32, b.top)
	for l := range g.upper {
		g.upper[l] = map[int32][]int32{}
	}
	for i, layers := range b.links {
		row := g.layer0[i*(1+2*b.m):]
		row[0] = int32(len(layers[0]))
		copy(row[1:], layers[0])
		for l := 1; l < len(layers); l++ {
			g.upper[l-1][int32(i)] = layers[l]
		}
	}
	return g
}

// Encode writes the graph: uvarints n, m, entry, top; for each upper layer its node
// count and each node with its neighbour count and neighbours; then layer 0's table, at
// a multiple of four from the start, as little-endian uint32s.
func (g *Graph) Encode() []byte {
	b := g.Head()
	for _, x := range g.layer0 {
		b = binary.LittleEndian.AppendUint32(b, uint32(x))
	}
	return b
}

// Head is what Encode writes before layer 0's table, whose 4 bytes a slot WriteLayer0
// writes: a segment writes the table from the graph rather than from a copy of it.
func (g *Graph) Head() []byte {
	var b []byte
	b = binary.AppendUvarint(b, uint64(g.n))
	b = binary.AppendUvarint(b, uint64(g.m))
	b = binary.AppendUvarint(b, uint64(g.entry))
	b = binary.AppendUvarint(b, uint64(g.top))
	for _, layer := range g.upper {
		b = binary.AppendUvarint(b, uint64(len(layer)))
		for node, nb := range layer {
			b = binary.AppendUvarint(b, uint64(node))
			b = binary.AppendUvarint(b, uint64(len(nb)))
			for _, x := range nb {
				b = binary.AppendUvarint(b, uint64(x))
			}
		}
	}
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	return b
}

// Layer0Len is the length of layer 0's table as Encode writes it.
func (g *Graph) Layer0Len() int { return 4 * len(g.layer0) }

// WriteLayer0 writes layer 0's table as Encode does, a chunk at a time.
func (g *Graph) WriteLayer0(w io.Writer) error {
	buf := make([]byte, 0, 64<<10)
	for _, x := range g.layer0 {
		buf = binary.LittleEndian.AppendUint32(buf, uint32(x))
		if len(buf) == cap(buf) {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	_, err := w.Write(buf)
	return err
}

var errGraph = errors.New("vector graph unreadable")

// DecodeGraph reads a graph Encode wrote; b must start at a multiple of four in memory
// for layer 0 to be read in place.
func DecodeGraph(b []byte) (*Graph, error) {
	r := &uvarintReader{b: b}
	g := &Graph{n: int(r.next()), m: int(r.next()), entry: int32(r.next()), top: int(r.next())}
	if r.err || g.top > 64 || g.m <= 0 {
		return nil, errGraph
	}
	g.upper = make([]map[int32][]int32, g.top)
	for l := range g.upper {
		count := int(r.next())
		layer := make(map[int32][]int32, count)
		for k := 0; k < count && !r.err; k++ {
			node, c := int32(r.next()), int(r.next())
			nb := make([]int32, 0, min(c, 2*g.m))
			for j := 0; j < c && !r.err; j++ {
				nb = append(nb, int32(r.next()))
			}
			layer[node] = nb
		}
		g.upper[l] = layer
	}
	pos := (r.pos + 3) &^ 3
	if r.err || len(b)-pos != 4*g.n*(1+2*g.m) {
		return nil, errGraph
	}
	g.layer0 = View32[int32](b[pos:])
	for i := 0; i < g.n; i++ {
		if c := g.layer0[i*(1+2*g.m)]; c < 0 || int(c) > 2*g.m {
			return nil, errGraph
		}
	}
	return g, nil
}

type uvarintReader struct {
	b   []byte
	pos int
	err bool
}

func (r *uvarintReader) next() uint64 {
	x, n := binary.Uvarint(r.b[min(r.pos, len(r.b)):])
	if n <= 0 {
		r.err = true
		return 0
	}
	r.pos += n
	return x
}
