package judged

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestScoreRanksTheIdealListAtOne(t *testing.T) {
	gains := map[string]float64{"a": 3, "b": 1, "c": 0}
	if s := Score("q", gains, []string{"a", "b", "c"}, 3); !near(s.NDCG, 1) || !near(s.Judged, 1) {
		t.Fatalf("ideal list: %+v", s)
	}
	s := Score("q", gains, []string{"b", "a"}, 2)
	want := (1 + 3/math.Log2(3)) / (3 + 1/math.Log2(3))
	if !near(s.NDCG, want) {
		t.Fatalf("swapped list: NDCG %v, want %v", s.NDCG, want)
	}
}

func TestScoreCountsUnjudgedHitsAsZeroButCondensedSkipsThem(t *testing.T) {
	gains := map[string]float64{"a": 1}
	s := Score("q", gains, []string{"x", "a"}, 2)
	if !near(s.NDCG, 1/math.Log2(3)) || !near(s.Condensed, 1) || !near(s.Judged, 0.5) {
		t.Fatalf("unjudged first: %+v", s)
	}
	if s := Score("q", gains, nil, 0); s.NDCG != 0 || s.Judged != 0 {
		t.Fatalf("no hit: %+v", s)
	}
}

func TestSummarizeAveragesByLengthClass(t *testing.T) {
	sum := Summarize([]QueryScore{{Query: "tv", NDCG: 1, Total: 3}, {Query: "red wool socks", NDCG: 0.5}, {Query: "a b c d", NDCG: 0}})
	if sum["all"].Queries != 3 || !near(sum["all"].NDCG, 0.5) || sum["all"].NoHit != 2 {
		t.Fatalf("all: %+v", sum["all"])
	}
	if !near(sum["1"].NDCG, 1) || !near(sum["2-3"].NDCG, 0.5) || sum["4+"].Queries != 1 {
		t.Fatalf("classes: %+v", sum)
	}
}
