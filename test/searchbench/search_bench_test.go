package searchbench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aislehq/aisle/internal/searchquery"
)

const (
	clients           = 8
	requestsPerClient = 40
	rounds            = 2
)

// queries are the searches every client sends in turn: text with typos and prefixes,
// a filter, a facet.
var queries = []string{vocabulary[3] + " jacket", "trail", vocabulary[17] + " scarf", "ceramic mu", "leathr wallet", "oak " + vocabulary[40], "carbon bike", "linen"}

func requestBody(q string) map[string]any {
	body := map[string]any{"q": q, "limit": 20, "facets": []string{"brand"},
		"filters": map[string]any{"field": "price", "range": map[string]any{"lt": 400}}}
	// AISLE_BENCH_MATCHING=any measures the matching of before issue 21 under its ranking.
	if m := os.Getenv("AISLE_BENCH_MATCHING"); m != "" {
		body["matchingStrategy"] = m
	}
	return body
}

// target is one way of sending the searches: it returns the request for query i.
type target func(i int) *http.Request

func post(url string, body []byte, headers map[string]string) *http.Request {
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	return req
}

// direct sends the body the API server would send, straight to the engine.
func direct(b *testing.B, sys system) target {
	schema, err := sys.searchSvc.Schema(context.Background(), sys.alias)
	must(b, err)
	bodies := make([][]byte, len(queries))
	for i, q := range queries {
		raw, _ := json.Marshal(requestBody(q))
		var req searchquery.Request
		must(b, json.Unmarshal(raw, &req))
		plan, err := searchquery.Build(req, searchquery.KeyedAccess(settings), schema)
		must(b, err)
		bodies[i] = plan.Bodies.Search
	}
	return func(i int) *http.Request {
		return post(sys.engineURL+"/"+sys.alias+"/_search", bodies[i%len(bodies)], nil)
	}
}

func keyed(sys system) target {
	return func(i int) *http.Request {
		raw, _ := json.Marshal(requestBody(queries[i%len(queries)]))
		return post(sys.apiURL+"/api/teams/bench/indexes/products/search", raw, map[string]string{"Authorization": "Bearer " + sys.key})
	}
}

func public(sys system) target {
	return func(i int) *http.Request {
		raw, _ := json.Marshal(requestBody(queries[i%len(queries)]))
		return post(sys.apiURL+"/api/public/indexes/"+sys.publicID+"/search", raw,
			map[string]string{"Origin": origin, "User-Agent": fmt.Sprintf("bench-client-%d", i%clients)})
	}
}

// result is the figures of one run: cpu is the process's CPU time per request (the
// engine, the API server and the clients all run in the benchmark's process).
type result struct {
	rps           float64
	p50, p99, cpu time.Duration
}

// cpuTime is the CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// run sends clients × requestsPerClient searches, clients at a time.
func run(b *testing.B, t target) result { return runWith(b, t, clients, requestsPerClient) }

// runWith sends n × perClient searches, n clients at a time.
func runWith(b *testing.B, t target, n, perClient int) result {
	httpClient := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n * 2}}
	lat := make([][]time.Duration, n)
	var wg sync.WaitGroup
	start, cpu0 := time.Now(), cpuTime()
	for c := 0; c < n; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < perClient; k++ {
				req := t(c*perClient + k)
				t0 := time.Now()
				resp, err := httpClient.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Errorf("status %d", resp.StatusCode)
					return
				}
				lat[c] = append(lat[c], time.Since(t0))
			}
		}()
	}
	wg.Wait()
	wall, cpu := time.Since(start), cpuTime()-cpu0
	all := slices.Concat(lat...)
	slices.Sort(all)
	if len(all) == 0 {
		b.Fatal("no request succeeded")
	}
	return result{rps: float64(len(all)) / wall.Seconds(), p50: all[len(all)/2], p99: all[len(all)*99/100], cpu: cpu / time.Duration(len(all))}
}

// best keeps the better figures of several runs: the machine is shared, and the best
// run is the least disturbed one.
func best(a, b result) result {
	if a.rps == 0 {
		return b
	}
	return result{rps: max(a.rps, b.rps), p50: min(a.p50, b.p50), p99: min(a.p99, b.p99), cpu: min(a.cpu, b.cpu)}
}

// BenchmarkSearch compares POST /search and public search (origin check and rate
// limiter) with the same query sent straight to the engine, 8 clients at once, on
// 100,000 records. Targets: API throughput at least 0.9x direct, p99 at most 1.2x;
// public search at most 5% slower than keyed.
func BenchmarkSearch(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	t0 := time.Now()
	sys := start(b, ctx)
	b.Logf("set up 100,000 records in %s", time.Since(t0).Round(time.Second))
	targets := map[string]target{"direct": direct(b, sys), "keyed": keyed(sys), "public": public(sys)}
	order := []string{"direct", "keyed", "public"}
	run(b, targets["keyed"]) // warm caches and connections
	res := alternate(b, targets, order)
	d, k, p := res["direct"], res["keyed"], res["public"]
	b.ReportMetric(k.rps/d.rps, "keyed/direct-throughput")
	b.ReportMetric(float64(k.p99)/float64(d.p99), "keyed/direct-p99")
	b.ReportMetric(p.rps/k.rps, "public/keyed-throughput")
	b.ReportMetric(float64(p.p99)/float64(k.p99), "public/keyed-p99")
}

// alternate runs the targets in turn, rounds times each b.N, keeps each one's best round
// (the machine's noise only ever slows a round) and reports it.
func alternate(b *testing.B, targets map[string]target, order []string) map[string]result {
	b.ResetTimer()
	res := map[string]result{}
	for i := 0; i < b.N*rounds; i++ {
		for _, name := range order {
			r := run(b, targets[name])
			b.Logf("%-6s %7.1f req/s  p50 %v  p99 %v  cpu %v/req", name, r.rps, r.p50.Round(time.Millisecond), r.p99.Round(time.Millisecond), r.cpu.Round(10*time.Microsecond))
			res[name] = best(res[name], r)
		}
	}
	b.StopTimer()
	for _, name := range order {
		r := res[name]
		b.ReportMetric(r.rps, name+"-req/s")
		b.ReportMetric(float64(r.p50.Microseconds())/1000, name+"-p50-ms")
		b.ReportMetric(float64(r.p99.Microseconds())/1000, name+"-p99-ms")
		b.ReportMetric(float64(r.cpu.Microseconds())/1000, name+"-cpu-ms/op")
	}
	return res
}
