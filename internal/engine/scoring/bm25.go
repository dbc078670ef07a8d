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
	"math/bits"
)

// BM25's parameters, Elasticsearch's defaults.
const (
	k1 float32 = 1.2
	b  float32 = 0.75
)

// numFreeValues are the lengths Lucene's SmallFloat.intToByte4 encodes exactly (0 to 23).
var numFreeValues = 255 - longToInt4(math.MaxInt32)

// longToInt4 is Lucene's SmallFloat.longToInt4: a float-like encoding with 4
// significant bits.
func longToInt4(i uint64) int {
	numBits := 64 - bits.LeadingZeros64(i)
	if numBits < 4 {
		return int(i)
	}
	shift := numBits - 4
	encoded := int(i>>uint(shift)) & 0x07
	return encoded | (shift+1)<<3
}

// int4ToLong decodes longToInt4.
func int4ToLong(i int) uint64 {
	mantissa := uint64(i & 0x07)
	shift := i>>3 - 1
	if shift == -1 {
		return mantissa
	}
	return (mantissa | 0x08) << uint(shift)
}

// LengthByte is Lucene's norm of a field of length tokens: SmallFloat.intToByte4.
func LengthByte(length int) byte {
	if length < numFreeValues {
		return byte(length)
	}
	return byte(numFreeValues + longToInt4(uint64(length-numFreeValues)))
}

// byteLength decodes LengthByte: SmallFloat.byte4ToInt.
func byteLength(n byte) int {
	if int(n) < numFreeValues {
		return int(n)
	}
	return numFreeValues + int(int4ToLong(int(n)-numFreeValues))
}

// lengthTable is BM25Similarity.LENGTH_TABLE: the length each norm byte stands for.
var lengthTable = func() (t [256]float32) {
	for i := range t {
		t[i] = float32(byteLength(byte(i)))
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
