package relevance

import (
	"fmt"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/test/judged"
)

// floors are the NDCG@10 of the development queries that a change must not fall below:
// search is deterministic, so the figure only moves when the ranking does.
var floors = map[string]float64{"icecat": 0.67, "esci": 0.65}

var _ = Describe("Search on judged catalogs", func() {
	It("finds what people judged relevant at least as well as its floor, on each set", func(ctx SpecContext) {
		for _, s := range sets {
			run := measure(ctx, "aisle", s, aisle(s, nil))
			got := judged.Summarize(run.Scores)["all"].NDCG
			fmt.Fprintf(GinkgoWriter, "%s: NDCG@10 %.4f (floor %.2f)\n", s.Name, got, floors[s.Name])
			Expect(got).To(BeNumerically(">=", floors[s.Name]), "NDCG@10 on %s", s.Name)
		}
	})

	It("prints the comparison with multi_match (make bench-relevance)", func(ctx SpecContext) {
		if !benchmarking() {
			Skip("AISLE_BENCH is not set")
		}
		for _, s := range sets {
			runs := []judged.Run{measure(ctx, "aisle", s, aisle(s, nil))}
			if !quick() {
				runs = append(runs, measure(ctx, "aisle all", s, aisle(s, map[string]any{"matchingStrategy": "all"})),
					measure(ctx, "aisle last", s, aisle(s, map[string]any{"matchingStrategy": "last"})))
				for _, ranking := range rankingVariants() {
					runs = append(runs, withRanking(ctx, s, ranking, func() judged.Run {
						return measure(ctx, "aisle "+strings.Join(ranking, ","), s, aisle(s, nil))
					}))
				}
			}
			best := ""
			bestNDCG := -1.0
			for _, a := range analyzers {
				for _, weighted := range []bool{true, false} {
					name := "bm25 " + a
					if !weighted {
						name += " unweighted"
					}
					r := measure(ctx, name, s, multiMatch(s, a, weighted))
					runs = append(runs, r)
					if n := judged.Summarize(r.Scores)["all"].NDCG; n > bestNDCG {
						best, bestNDCG = r.System, n
					}
				}
			}
			judged.Report(os.Stdout, s.Name, runs, best)
			compare(s.Name, runs[0], runs)
		}
	})
})

// quick reports AISLE_RELEVANCE_QUICK: only the default beside multi_match, no
// variants, while a ranking change is being tried.
func quick() bool { return os.Getenv("AISLE_RELEVANCE_QUICK") != "" }

// compare prints, when AISLE_RELEVANCE_QUERIES is set, each query's NDCG@10 for every
// run, worst first against the last run: where a ranking change should look.
func compare(set string, aisle judged.Run, runs []judged.Run) {
	if os.Getenv("AISLE_RELEVANCE_QUERIES") == "" {
		return
	}
	base := runs[len(runs)-1]
	idx := make([]int, len(aisle.Scores))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool {
		return aisle.Scores[idx[a]].NDCG-base.Scores[idx[a]].NDCG < aisle.Scores[idx[b]].NDCG-base.Scores[idx[b]].NDCG
	})
	for _, i := range idx {
		fmt.Printf("%s\t%q", set, aisle.Scores[i].Query)
		for _, r := range runs {
			fmt.Printf("\t%s=%.2f(%d)", r.System, r.Scores[i].NDCG, r.Scores[i].Total)
		}
		fmt.Println()
	}
}

// rankingVariants are the rankings the default was chosen against: the previous
// release's default, and each of its two criteria the default leaves out, then those of
// AISLE_RELEVANCE_RANKINGS (rankings separated by ";", criteria by ",").
func rankingVariants() [][]string {
	out := [][]string{
		{"sort", "words", "typo", "proximity", "attribute", "exact", "custom"},
		{"sort", "words", "typo", "proximity", "exact", "custom"},
		{"sort", "words", "typo", "attribute", "exact", "custom"},
	}
	for _, r := range strings.Split(os.Getenv("AISLE_RELEVANCE_RANKINGS"), ";") {
		if r = strings.TrimSpace(r); r != "" {
			out = append(out, strings.Split(r, ","))
		}
	}
	return out
}

// withRanking runs fn with the set's ranking setting changed through PUT /config, and
// puts the settings back after.
func withRanking(ctx SpecContext, s *judged.Set, ranking []string, fn func() judged.Run) judged.Run {
	var cfg map[string]any
	call(ctx, http.MethodGet, indexURL(s, "/config"), nil, &cfg)
	delete(cfg, "rebuild")
	changed := map[string]any{}
	for k, v := range cfg {
		changed[k] = v
	}
	changed["ranking"] = ranking
	call(ctx, http.MethodPut, indexURL(s, "/config"), changed, nil)
	// The replica's settings cache catches up within seconds.
	time.Sleep(6 * time.Second)
	defer func() {
		call(ctx, http.MethodPut, indexURL(s, "/config"), cfg, nil)
		time.Sleep(6 * time.Second)
	}()
	return fn()
}
