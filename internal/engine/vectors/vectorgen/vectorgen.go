// Package vectorgen generates deterministic vectors spread as text embeddings are, for
// the vector benchmarks (the graph's in internal/engine/vectors, the engine's at 100,000
// products in internal/engine): each is one of 200 topics' centres plus a point of that
// topic's own 16-dimension subspace (a random basis, normal coordinates) and a little
// noise in every dimension, from a fixed seed. Uniform random vectors, whose neighbours
// are all about equally far, would measure what no embedding model produces.
package vectorgen

import "math/rand/v2"

const topics, sub = 200, 16

// Generator draws vectors of one dimension count; the topics are the same for every
// generator of that count, the draws depend on the seed.
type Generator struct {
	dims    int
	rng     *rand.Rand
	centres []float32
	bases   []float32
}

// New returns a generator of dims-dimension vectors drawn from seed.
func New(dims int, seed uint64) *Generator {
	base := rand.New(rand.NewPCG(99, 11)) // the topics, the same for every seed
	g := &Generator{dims: dims, rng: rand.New(rand.NewPCG(seed, 11)),
		centres: make([]float32, topics*dims), bases: make([]float32, topics*sub*dims)}
	for i := range g.centres {
		g.centres[i] = float32(base.NormFloat64())
	}
	for i := range g.bases {
		g.bases[i] = float32(base.NormFloat64() * 0.5)
	}
	return g
}

// Next writes the next vector into v (dims values).
func (g *Generator) Next(v []float32) {
	t := g.rng.IntN(topics)
	copy(v, g.centres[t*g.dims:(t+1)*g.dims])
	for s := 0; s < sub; s++ {
		z := float32(g.rng.NormFloat64())
		row := g.bases[(t*sub+s)*g.dims:]
		for j := range v {
			v[j] += z * row[j]
		}
	}
	for j := range v {
		v[j] += float32(g.rng.NormFloat64() * 0.1)
	}
}

// Generated is n vectors of dims values from seed, one after the other.
func Generated(n, dims int, seed uint64) []float32 {
	g := New(dims, seed)
	out := make([]float32, n*dims)
	for i := 0; i < n; i++ {
		g.Next(out[i*dims : (i+1)*dims])
	}
	return out
}
