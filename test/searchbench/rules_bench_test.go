package searchbench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/merch"
	"github.com/aislehq/aisle/internal/searchquery"
)

// tenThousandRules are 10,000 rules: one per benchmark query (a promoted record and a
// boost, the costliest consequences: a promotion takes a second search), a seasonal
// boost that applies to every query, and the rest with patterns of the vocabulary that
// the queries mostly do not match, under every anchoring.
func tenThousandRules() []merch.Rule {
	r := rand.New(rand.NewPCG(5, 5))
	boost := func(brand string) []merch.Weighted {
		return []merch.Weighted{{Filter: &searchquery.Filter{Field: "brand", Eq: brand}}}
	}
	var out []merch.Rule
	for i, q := range queries {
		pattern := q
		out = append(out, merch.Rule{ObjectID: fmt.Sprintf("query-%d", i),
			Conditions:  []merch.Condition{{Pattern: &pattern, Anchoring: merch.Is}},
			Consequence: merch.Consequence{Promote: []merch.Promotion{{ObjectID: fmt.Sprintf("sku-%06d", i), Position: 3}}, Boost: boost("brand-7")}})
	}
	out = append(out, merch.Rule{ObjectID: "season", Consequence: merch.Consequence{Boost: boost("brand-9")}})
	anchorings := []string{merch.Is, merch.StartsWith, merch.EndsWith, merch.Contains}
	for i := len(out); i < merch.MaxRules; i++ {
		words := make([]string, 1+r.IntN(3))
		for j := range words {
			words[j] = vocabulary[200+r.IntN(len(vocabulary)-200)]
		}
		pattern := strings.Join(words, " ")
		out = append(out, merch.Rule{ObjectID: fmt.Sprintf("r%05d", i),
			Conditions:  []merch.Condition{{Pattern: &pattern, Anchoring: anchorings[i%4]}},
			Consequence: merch.Consequence{Hide: []string{fmt.Sprintf("sku-%06d", 50_000+i)}, Boost: boost(fmt.Sprintf("brand-%d", i%200))}})
	}
	return out
}

// BenchmarkRules measures what 10,000 merchandising rules add to a keyed search at p50
// (8 clients at once, 100,000 records): the same searches without rules, then with the
// index holding 10,000 rules, of which two apply to each search (one promoting a
// record). Target: at most 2 ms more at p50.
func BenchmarkRules(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	t0 := time.Now()
	sys := start(b, ctx)
	b.Logf("set up 100,000 records in %s", time.Since(t0).Round(time.Second))
	t := keyed(sys)
	run(b, t) // warm caches and connections
	var without, with result
	for i := 0; i < rounds; i++ {
		without = best(without, run(b, t))
	}
	t0 = time.Now()
	target := merch.Target{Names: esnames.For("bench", "products"), UID: "bench", Settings: settings}
	must(b, sys.searchSvc.Rules().Replace(ctx, target, tenThousandRules()))
	b.Logf("wrote 10,000 rules in %s", time.Since(t0).Round(time.Millisecond))
	run(b, t) // the replica reads the rules, and analyses each query once
	b.ResetTimer()
	for i := 0; i < b.N*rounds; i++ {
		with = best(with, run(b, t))
	}
	b.StopTimer()
	for name, r := range map[string]result{"without": without, "with": with} {
		b.Logf("%-7s %7.1f req/s  p50 %v  p99 %v  cpu %v/req", name, r.rps, r.p50.Round(10*time.Microsecond), r.p99.Round(10*time.Microsecond), r.cpu.Round(10*time.Microsecond))
		b.ReportMetric(float64(r.p50.Microseconds())/1000, name+"-rules-p50-ms")
		b.ReportMetric(float64(r.p99.Microseconds())/1000, name+"-rules-p99-ms")
	}
	b.ReportMetric(float64((with.p50-without.p50).Microseconds())/1000, "added-p50-ms")
}
