package relevance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/test/judged"
)

// analyzers are the plain indices' analyzers: Elasticsearch's default and its English one.
var analyzers = []string{"standard", "english"}

// deep is how many hits a search asks for: ten are scored, the rest feed the condensed list.
const deep = 100

// call sends body to url with the relevance key and decodes the answer into out.
func call(ctx context.Context, method, url string, body any, out any) int {
	var buf bytes.Buffer
	if body != nil {
		Expect(json.NewEncoder(&buf).Encode(body)).To(Succeed())
	}
	req, err := http.NewRequestWithContext(ctx, method, url, &buf)
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	Expect(err).NotTo(HaveOccurred())
	if out != nil {
		Expect(json.Unmarshal(raw, out)).To(Succeed(), "%s %s: %s", method, url, raw)
	}
	Expect(resp.StatusCode).To(BeNumerically("<", 300), "%s %s: %s", method, url, raw)
	return resp.StatusCode
}

func indexURL(s *judged.Set, path string) string {
	return fmt.Sprintf("%s/api/teams/%s/indexes/%s%s", running.Env.BaseURL, workspace, s.Name, path)
}

// loadThroughAPI writes the set's products with POST /records, 1,000 a request (with
// their vectors when the set has an embedder): each is searchable once its 202 came back.
func loadThroughAPI(ctx context.Context, s *judged.Set) {
	for i := 0; i < len(s.Products); i += 1000 {
		batch := make([]map[string]any, 0, 1000)
		for _, p := range s.Products[i:min(i+1000, len(s.Products))] {
			batch = append(batch, withVectors(s, p))
		}
		Expect(call(ctx, http.MethodPost, indexURL(s, "/records"), map[string]any{"records": batch}, nil)).To(Equal(http.StatusAccepted))
	}
}

func plainIndex(s *judged.Set, analyzer string) string { return "bm25-" + s.Name + "-" + analyzer }

// loadPlain writes the set's products into an engine index whose searchable fields are
// text with analyzer, as a platform team trying Elasticsearch first would.
func loadPlain(ctx context.Context, s *judged.Set, analyzer string) {
	props := map[string]any{}
	for _, f := range s.Fields {
		props[f.Path] = map[string]any{"type": "text", "analyzer": analyzer}
	}
	name := running.Env.EngineURL + "/" + plainIndex(s, analyzer)
	call(ctx, http.MethodPut, name, map[string]any{"mappings": map[string]any{"properties": props}}, nil)
	var bulk strings.Builder
	for _, p := range s.Products {
		id, _ := json.Marshal(map[string]any{"index": map[string]any{"_id": p["objectID"]}})
		doc, _ := json.Marshal(p)
		bulk.Write(id)
		bulk.WriteByte('\n')
		bulk.Write(doc)
		bulk.WriteByte('\n')
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, name+"/_bulk?refresh=true", strings.NewReader(bulk.String()))
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Content-Type", "application/x-ndjson")
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	var res struct{ Errors bool }
	Expect(json.NewDecoder(resp.Body).Decode(&res)).To(Succeed())
	resp.Body.Close()
	Expect(res.Errors).To(BeFalse(), "bulk into %s", name)
}

// searcher runs one query and returns the ranked objectIDs and the reported total.
type searcher func(ctx context.Context, q string) ([]string, int)

// aisle searches the set's SearchIndex with POST /search, extra merged into the body.
func aisle(s *judged.Set, extra map[string]any) searcher {
	return func(ctx context.Context, q string) ([]string, int) {
		body := map[string]any{"q": q, "limit": deep, "fields": []string{s.Fields[0].Path}, "highlight": false}
		for k, v := range extra {
			body[k] = v
		}
		var res struct {
			Hits []struct {
				ObjectID string `json:"objectID"`
			} `json:"hits"`
			Total int `json:"total"`
		}
		call(ctx, http.MethodPost, indexURL(s, "/search"), body, &res)
		ids := make([]string, len(res.Hits))
		for i, h := range res.Hits {
			ids[i] = h.ObjectID
		}
		return ids, res.Total
	}
}

// multiMatch searches a plain index with multi_match (best_fields, OR) over the set's
// fields, with their weights as boosts when weighted.
func multiMatch(s *judged.Set, analyzer string, weighted bool) searcher {
	var fields []string
	for _, f := range s.Fields {
		if !weighted {
			fields = append(fields, f.Path)
			continue
		}
		fields = append(fields, fmt.Sprintf("%s^%d", f.Path, f.Weight))
	}
	return func(ctx context.Context, q string) ([]string, int) {
		body := map[string]any{"size": deep, "_source": false, "track_total_hits": true,
			"query": map[string]any{"multi_match": map[string]any{"query": q, "fields": fields, "type": "best_fields"}}}
		var res struct {
			Hits struct {
				Total struct{ Value int }
				Hits  []struct {
					ID string `json:"_id"`
				}
			}
		}
		call(ctx, http.MethodPost, running.Env.EngineURL+"/"+plainIndex(s, analyzer)+"/_search", body, &res)
		ids := make([]string, len(res.Hits.Hits))
		for i, h := range res.Hits.Hits {
			ids[i] = h.ID
		}
		return ids, res.Hits.Total.Value
	}
}

// measure runs every judged query of s through search, timing each and the process's
// CPU for all of them (the engine and the API server run in this process).
func measure(ctx context.Context, name string, s *judged.Set, search searcher) judged.Run {
	run := judged.Run{System: name}
	before := cpuTime()
	for _, q := range s.Queries {
		start := time.Now()
		ids, total := search(ctx, q)
		run.Latencies = append(run.Latencies, time.Since(start))
		run.Scores = append(run.Scores, judged.Score(q, s.Gains[q], ids, total))
		dump(s.Name, name, q, ids)
	}
	run.CPU = cpuTime() - before
	return run
}

// dump appends, when AISLE_RELEVANCE_DUMP names a file, one JSON line of a query's
// first ten hits: what a ranking change's author reads beside the judgments.
func dump(set, system, q string, ids []string) {
	path := os.Getenv("AISLE_RELEVANCE_DUMP")
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	Expect(err).NotTo(HaveOccurred())
	defer f.Close()
	Expect(json.NewEncoder(f).Encode(map[string]any{"set": set, "system": system, "query": q, "ids": ids[:min(10, len(ids))]})).To(Succeed())
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
