package scoring

import (
	"testing"

	"github.com/aislehq/aisle/internal/engine/fieldstats"
)

// Lucene's SmallFloat.intToByte4 keeps lengths up to 39 exactly and four significant bits
// beyond: the decoded values below are those of Lucene's LENGTH_TABLE.
func TestLengthByteDecodesAsLucene(t *testing.T) {
	for length, want := range map[int]float32{0: 0, 1: 1, 23: 23, 24: 24, 39: 39, 40: 40, 41: 40, 42: 42, 45: 44, 100: 96, 1000: 984} {
		if got := lengthTable[fieldstats.LengthByte(length)]; got != want {
			t.Errorf("length %d decodes as %v, Lucene's as %v", length, got, want)
		}
	}
}

// Hand-computed with Lucene's float arithmetic: idf(1 of 2 documents) = ln(1 + 1.5/1.5),
// a field of 3 tokens where the average is 2: w - w/(1 + 1/(1.2 × (0.25 + 0.75 × 3/2))).
func TestBM25Score(t *testing.T) {
	if got, want := Idf(1, 2), float32(0.6931472); got != want {
		t.Fatalf("idf %v, want %v", got, want)
	}
	s := NewBM25(1, Idf(1, 2), 2)
	if got, want := s.Score(1, fieldstats.LengthByte(3)), float32(0.2615649402141571); got != want {
		t.Errorf("score %v, want %v", got, want)
	}
}
