package aggs

import (
	"math"
	"testing"
)

// The heuristics are Elasticsearch's formulas; the expectations are worked by hand from
// their definitions (Manning et al. for mutual information and chi square).
func TestHeuristicScores(t *testing.T) {
	superset := func(name string) heuristic { return heuristic{name: name, backgroundIsSuperset: true} }
	// 10 of 20 subset documents hold the term; 10 of 100 background documents do.
	mi := 0.1*math.Log2(0.1/0.02) + 0.1*math.Log2(0.1/0.18) + 0.8*math.Log2(0.8/0.72)
	cases := []struct {
		h              heuristic
		sf, ss, bf, bs int64
		want           float64
	}{
		{superset("jlh"), 4, 4, 5, 7, (1 - 5.0/7) * (7.0 / 5)},
		{superset("jlh"), 1, 4, 4, 7, 0},                           // rarer in the subset
		{superset("jlh"), 1, 4, 0, 7, (0.25 - 1.0/7) * (0.25 * 7)}, // absent from the background: taken as 1
		{superset("percentage"), 3, 10, 6, 100, 0.5},
		{superset("percentage"), 0, 10, 0, 100, 0},
		{superset("chi_square"), 10, 20, 10, 100, 100 * math.Pow(10*80, 2) / (20 * 10 * 90 * 80)},
		{superset("mutual_information"), 10, 20, 10, 100, mi},
		{superset("gnd"), 5, 5, 5, 100, 1},
		{superset("gnd"), 0, 5, 5, 100, 0},
		{superset("mutual_information"), 1, 20, 50, 100, math.Inf(-1)}, // rarer in the subset, negatives left out
	}
	for _, c := range cases {
		got, err := c.h.score(c.sf, c.ss, c.bf, c.bs)
		if err != nil {
			t.Fatalf("%s(%d, %d, %d, %d): %v", c.h.name, c.sf, c.ss, c.bf, c.bs, err)
		}
		if math.Abs(got-c.want) > 1e-12 && got != c.want {
			t.Errorf("%s(%d, %d, %d, %d) = %v, want %v", c.h.name, c.sf, c.ss, c.bf, c.bs, got, c.want)
		}
	}
}

func TestHeuristicRefusals(t *testing.T) {
	cases := []struct {
		h              heuristic
		sf, ss, bf, bs int64
	}{
		{heuristic{name: "jlh"}, 5, 4, 5, 10},                                    // subsetFreq > subsetSize
		{heuristic{name: "percentage"}, 1, 4, 11, 10},                            // supersetFreq > supersetSize
		{heuristic{name: "chi_square", backgroundIsSuperset: true}, 3, 4, 2, 10}, // subsetFreq > supersetFreq
	}
	for _, c := range cases {
		if _, err := c.h.score(c.sf, c.ss, c.bf, c.bs); err == nil {
			t.Errorf("%s(%d, %d, %d, %d) scored; want a refusal", c.h.name, c.sf, c.ss, c.bf, c.bs)
		}
	}
	if _, err := (heuristic{name: "chi_square"}).score(3, 4, 2, 10); err != nil {
		t.Errorf("a background that is not a superset may hold fewer: %v", err)
	}
}
