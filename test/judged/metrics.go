package judged

import (
	"fmt"
	"io"
	"math"
	"sort"
	"time"
)

// Depth is the cut of every list measure: NDCG@10 and the judged share of the first ten.
const Depth = 10

// QueryScore is how well one ranked list serves one query.
type QueryScore struct {
	Query string
	// NDCG is NDCG@10, an unjudged hit counting as irrelevant.
	NDCG float64
	// Condensed is NDCG@10 of the list with its unjudged hits left out.
	Condensed float64
	// Judged is the share of judged records among the first ten hits (0 without hits).
	Judged float64
	// Total is the number of hits the search reported.
	Total int
}

// Score scores ids, the ranked objectIDs a system returned for q (at least its first
// ten), of which it reported total hits.
func Score(q string, gains map[string]float64, ids []string, total int) QueryScore {
	s := QueryScore{Query: q, Total: total}
	ideal := dcg(sortedGains(gains))
	if ideal == 0 {
		return s
	}
	top := ids[:min(Depth, len(ids))]
	list, judged := make([]float64, len(top)), 0
	for i, id := range top {
		list[i] = gains[id]
		if _, ok := gains[id]; ok {
			judged++
		}
	}
	var condensed []float64
	for _, id := range ids {
		if g, ok := gains[id]; ok {
			condensed = append(condensed, g)
		}
	}
	s.NDCG = dcg(list) / ideal
	s.Condensed = dcg(condensed) / ideal
	if len(top) > 0 {
		s.Judged = float64(judged) / float64(len(top))
	}
	return s
}

// dcg is the discounted cumulative gain of the first Depth gains.
func dcg(gains []float64) float64 {
	sum := 0.0
	for i, g := range gains[:min(Depth, len(gains))] {
		sum += g / math.Log2(float64(i)+2)
	}
	return sum
}

// Summary is the mean of a class of queries' scores.
type Summary struct {
	Queries, NoHit                int
	NDCG, Condensed, Judged, Hits float64
}

// Summarize averages the scores of each length class, and of all ("all").
func Summarize(scores []QueryScore) map[string]Summary {
	out := map[string]Summary{}
	for _, s := range scores {
		for _, c := range []string{"all", LengthClass(s.Query)} {
			m := out[c]
			m.Queries++
			m.NDCG += s.NDCG
			m.Condensed += s.Condensed
			m.Judged += s.Judged
			m.Hits += float64(s.Total)
			if s.Total == 0 {
				m.NoHit++
			}
			out[c] = m
		}
	}
	for c, m := range out {
		n := float64(m.Queries)
		m.NDCG, m.Condensed, m.Judged, m.Hits = m.NDCG/n, m.Condensed/n, m.Judged/n, m.Hits/n
		out[c] = m
	}
	return out
}

// Run is one system's scores on one set, with its search latencies.
type Run struct {
	System    string
	Scores    []QueryScore
	Latencies []time.Duration
	// CPU is the process CPU time its searches took, all queries together.
	CPU time.Duration
}

// Percentile is the p-th percentile of the run's latencies (0 without any).
func (r Run) Percentile(p float64) time.Duration {
	if len(r.Latencies) == 0 {
		return 0
	}
	l := append([]time.Duration(nil), r.Latencies...)
	sort.Slice(l, func(i, j int) bool { return l[i] < l[j] })
	return l[min(len(l)-1, int(math.Ceil(p/100*float64(len(l))))-1)]
}

// Report prints a table per length class: each run's figures, and its NDCG@10 as a
// ratio of the baseline run's (the best BM25).
func Report(w io.Writer, set string, runs []Run, baseline string) {
	sums := make([]map[string]Summary, len(runs))
	base := map[string]Summary{}
	for i, r := range runs {
		sums[i] = Summarize(r.Scores)
		if r.System == baseline {
			base = sums[i]
		}
	}
	for _, c := range Classes {
		fmt.Fprintf(w, "\n%s, queries of %s words (%d)\n", set, c, sums[0][c].Queries)
		fmt.Fprintf(w, "| system | NDCG@10 | vs %s | condensed | judged@10 | no hit | hits | p50 ms | p99 ms | CPU ms/query |\n|---|---|---|---|---|---|---|---|---|---|\n", baseline)
		for i, r := range runs {
			s := sums[i][c]
			ratio := 0.0
			if b := base[c].NDCG; b > 0 {
				ratio = s.NDCG / b
			}
			timing := "| | | |"
			if c == "all" && len(r.Latencies) > 0 {
				timing = fmt.Sprintf("| %.2f | %.2f | %.2f |", ms(r.Percentile(50)), ms(r.Percentile(99)), ms(r.CPU)/float64(len(r.Latencies)))
			}
			fmt.Fprintf(w, "| %s | %.3f | %.2fx | %.3f | %.2f | %d | %.0f %s\n", r.System, s.NDCG, ratio, s.Condensed, s.Judged, s.NoHit, s.Hits, timing)
		}
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
