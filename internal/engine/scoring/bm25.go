// Package scoring holds searchers that score documents as Lucene 9 (Elasticsearch 8)
// does: BM25 from Lucene's statistics and one-byte length norms, sums for bool, the
// maximum plus a tie breaker for dis_max, constants for filters, every score a float32
// computed in Lucene's order of operations, so that equal inputs give equal bits.
//
// Bleve's own searchers normalise scores by a query norm and multiply disjunctions by a
// coordination factor, as Lucene did before version 7; these searchers do neither.
package scoring

import (
	"math"

	"github.com/aislehq/aisle/internal/engine/fieldstats"
)

// BM25's parameters, Elasticsearch's defaults.
const (
	k1 float32 = 1.2
	b  float32 = 0.75
)

// lengthTable is BM25Similarity.LENGTH_TABLE: the length each norm byte stands for.
var lengthTable = func() (t [256]float32) {
	for i := range t {
		t[i] = float32(fieldstats.ByteLength(byte(i)))
	}
	return t
}()

// Idf is BM25Similarity.idf: log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5)).
func Idf(docFreq, docCount int64) float32 {
	return float32(math.Log(1 + (float64(docCount)-float64(docFreq)+0.5)/(float64(docFreq)+0.5)))
}

// PhraseIdf is BM25Similarity's idf of several terms: their idfs summed in a double.
func PhraseIdf(docFreqs []int64, docCount int64) float32 {
	var sum float64
	for _, df := range docFreqs {
		sum += float64(Idf(df, docCount))
	}
	return float32(sum)
}

// BM25 scores one term (or phrase) of one field: Lucene's BM25Scorer.
type BM25 struct {
	weight float32 // boost × idf
	// cache is, per norm byte, 1 / (k1 × ((1 - b) + b × length / avgdl)).
	cache [256]float32
}

// NewBM25 is BM25Similarity.scorer for a boost, an idf and the field's average length.
func NewBM25(boost, idf, avgdl float32) *BM25 {
	s := &BM25{weight: boost * idf}
	for i, length := range lengthTable {
		// Each product is rounded to float32 on its own, as Java does; the conversions
		// keep the compiler from fusing a multiply and an add.
		scaled := float32(b*length) / avgdl
		s.cache[i] = 1 / float32(k1*float32((1-b)+scaled))
	}
	return s
}

// Score is the score of a document where the term occurs freq times in a field whose
// norm is norm.
func (s *BM25) Score(freq float32, norm byte) float32 {
	return s.weight - s.weight/(1+float32(freq*s.cache[norm]))
}
