package searchquery

import (
	"encoding/json"
	"math"
	"testing"
)

func TestSimilarityOfAHitIsElasticsearchsCosineScoreAndItsVectorsAreStripped(t *testing.T) {
	s := &semanticPlan{field: "_vectors.use", vector: []float64{1, 0}}
	for _, c := range []struct {
		record string
		want   *float64
		after  string
	}{
		{`{"objectID":"a","_vectors":{"use":[2,0]}}`, ptrTo(1.0), `{"objectID":"a"}`},
		{`{"objectID":"a","_vectors":{"use":[0,3]}}`, ptrTo(0.5), `{"objectID":"a"}`},
		{`{"objectID":"a","_vectors":{"use":[-1,0],"other":[1]}}`, ptrTo(0.0), `{"objectID":"a"}`},
		{`{"objectID":"a","_vectors":{"other":[1,0]}}`, nil, `{"objectID":"a"}`},
		{`{"objectID":"a"}`, nil, `{"objectID":"a"}`},
		{`{"objectID":"a","_vectors":{"use":[1e308,1e308]}}`, ptrTo((1 + math.Sqrt(0.5)) / 2), `{"objectID":"a"}`},
	} {
		hit := Hit{Record: json.RawMessage(c.record)}
		got, err := s.similarityOf(&hit)
		if err != nil {
			t.Fatal(err)
		}
		if (got == nil) != (c.want == nil) || (got != nil && *got-*c.want > 1e-12 || got != nil && *c.want-*got > 1e-12) {
			t.Errorf("%s: similarity %v, want %v", c.record, got, c.want)
		}
		if string(hit.Record) != c.after {
			t.Errorf("%s: record %s, want %s", c.record, hit.Record, c.after)
		}
	}
}

func ptrTo(x float64) *float64 { return &x }
