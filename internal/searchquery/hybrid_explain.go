package searchquery

import (
	"bytes"
	"encoding/json"
	"math"

	"github.com/aislehq/aisle/internal/indexmapping"
)

// explain's semantic similarity is decoded a second way, as the score's fraction mixes
// it with BM25: the hit's vector comes back in _source (for explain only), its
// similarity to the query's is computed as Elasticsearch's cosine score, (1+cos)/2,
// and the vectors are stripped from the record.

// withVectors is the _source filter of an explained hybrid search: the embedder's
// vectors come back with the fields asked for.
func (s *semanticPlan) withVectors(src sourceFilter) sourceFilter {
	src.Excludes = []string{indexmapping.VersionField, indexmapping.EmbedStateField}
	if src.Includes != nil {
		src.Includes = append(src.Includes, s.field)
	}
	return src
}

// similarityOf strips the vectors from a hit's record and returns its similarity to the
// query's vector (nil when the record has none for the embedder).
func (s *semanticPlan) similarityOf(hit *Hit) (*float64, error) {
	if !bytes.Contains(hit.Record, []byte(`"`+indexmapping.VectorsField+`"`)) {
		return nil, nil
	}
	var rec map[string]json.RawMessage
	if err := json.Unmarshal(hit.Record, &rec); err != nil {
		return nil, err
	}
	var vs map[string][]float64
	_ = json.Unmarshal(rec[indexmapping.VectorsField], &vs) // a vector the mapping refused is no vector
	delete(rec, indexmapping.VectorsField)
	clean, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	hit.Record = clean
	v, ok := vs[s.field[len(indexmapping.VectorsField)+1:]]
	if !ok || len(v) != len(s.vector) {
		return nil, nil
	}
	sim := cosineScore(s.vector, v)
	return &sim, nil
}

// cosineScore is Elasticsearch's score of the cosine similarity: (1+cos)/2, in 0..1.
// Each vector is scaled by its largest magnitude first, so that no square overflows.
func cosineScore(a, b []float64) float64 {
	sa, sb := largest(a), largest(b)
	if sa == 0 || sb == 0 {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		x, y := a[i]/sa, b[i]/sb
		dot += x * y
		na += x * x
		nb += y * y
	}
	return max(0, min(1, (1+dot/math.Sqrt(na*nb))/2))
}

func largest(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = max(m, math.Abs(x))
	}
	return m
}
