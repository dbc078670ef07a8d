package engine_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sort"
	"strings"
	"syscall"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/engine"
)

// do sends a request to an engine at base and returns its status and body.
func do(base, method, path, body string) (int, string) {
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer res.Body.Close()
	var b strings.Builder
	_, err = fmt.Fprint(&b, readAll(res))
	Expect(err).NotTo(HaveOccurred())
	return res.StatusCode, b.String()
}

func readAll(res *http.Response) string {
	var sb strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := res.Body.Read(buf)
		sb.Write(buf[:n])
		if err != nil {
			return sb.String()
		}
	}
}

// nearest is the ids of the k vectors closest to q by l2 distance.
func nearest(vecs map[string][]float64, q []float64, k int) []string {
	ids := make([]string, 0, len(vecs))
	for id := range vecs {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(a, b int) bool { return l2(vecs[ids[a]], q) < l2(vecs[ids[b]], q) })
	return ids[:k]
}

var _ = Describe("Vectors' durability", func() {
	It("keeps every acknowledged vector searchable after the engine is killed with SIGKILL and restarted", func() {
		dir := GinkgoT().TempDir()
		cmd, url := startChild(dir)
		status, body := do(url, "PUT", "/vectors", `{"mappings":{"properties":{"vec":{"type":"dense_vector","dims":8,
			"similarity":"l2_norm","index_options":{"type":"hnsw","m":8,"ef_construction":50}}}}}`)
		Expect(status).To(Equal(200), body)
		rng := rand.New(rand.NewPCG(3, 4))
		vecs := map[string][]float64{}
		write := func(from, to int, refresh string) {
			var bulk strings.Builder
			for i := from; i < to; i++ {
				v := make([]float64, 8)
				for j := range v {
					v[j] = rng.Float64()
				}
				id := fmt.Sprint("d", i)
				vecs[id] = v
				raw, _ := json.Marshal(v)
				fmt.Fprintf(&bulk, "{\"index\":{\"_id\":%q}}\n{\"vec\":%s}\n", id, raw)
			}
			status, body := do(url, "POST", "/vectors/_bulk"+refresh, bulk.String())
			Expect(status).To(Equal(200), body)
		}
		// Segments of three refreshes (which a merge may join), then writes only in the
		// translog.
		write(0, 200, "?refresh=true")
		write(200, 400, "?refresh=true")
		write(400, 600, "?refresh=true")
		write(600, 650, "")
		Expect(cmd.Process.Signal(syscall.SIGKILL)).To(Succeed())
		_ = cmd.Wait()

		restarted, err := engine.Start(ctx, engine.Config{DataDir: dir})
		Expect(err).NotTo(HaveOccurred())
		defer func() { Expect(restarted.Close()).To(Succeed()) }()
		status, body = do(restarted.URL(), "POST", "/vectors/_refresh", "")
		Expect(status).To(Equal(200), body)
		for _, q := range [][]float64{vecs["d5"], vecs["d640"], {0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5}} {
			raw, _ := json.Marshal(q)
			status, body = do(restarted.URL(), "POST", "/vectors/_search",
				`{"_source":false,"size":10,"knn":{"field":"vec","query_vector":`+string(raw)+`,"k":10,"num_candidates":100}}`)
			Expect(status).To(Equal(200), body)
			var r struct{ Hits struct{ Hits []hit } }
			Expect(json.Unmarshal([]byte(body), &r)).To(Succeed())
			Expect(knnIDs(r.Hits.Hits)).To(Equal(nearest(vecs, q, 10)))
		}
	})
})
