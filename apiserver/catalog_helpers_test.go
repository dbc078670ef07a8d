package apiserver_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/client-go/rest"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/test/envtestenv"
)

var httpClient = &http.Client{Timeout: 2 * time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}

// response is an answer of a replica, already checked against docs/openapi.yaml.
type response struct {
	status int
	body   []byte
	header http.Header
}

func (r response) receipt() catalog.Receipt {
	var rec catalog.Receipt
	ExpectWithOffset(1, json.Unmarshal(r.body, &rec)).To(Succeed())
	return rec
}

// call sends a request to replica i (0 or 1) and validates the answer against the
// OpenAPI document. It is safe in goroutines: failures come back as errors.
func callE(i int, method, path, key string, body any) (response, error) {
	return callWithE(i, method, path, key, body, nil)
}

// callWithE is callE with more headers (an Origin, a User-Agent).
func callWithE(i int, method, path, key string, body any, headers map[string]string) (response, error) {
	var rd io.Reader
	if body != nil {
		raw, ok := body.([]byte)
		if !ok {
			var err error
			if raw, err = json.Marshal(body); err != nil {
				return response{}, err
			}
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, replicas[i%2]+path, rd)
	if err != nil {
		return response{}, err
	}
	setHeaders(req, body != nil, key, headers)
	resp, err := httpClient.Do(req)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return response{}, err
	}
	if err := openapi.Response(req, resp, data); err != nil {
		return response{}, err
	}
	return response{status: resp.StatusCode, body: data, header: resp.Header}, nil
}

func call(i int, method, path, key string, body any) response {
	r, err := callE(i, method, path, key, body)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return r
}

// catalogIndex is a fresh SearchIndex of workspace shop with a write and a search key.
type catalogIndex struct {
	name, base, writeKey, searchKey string
	names                           esnames.Index
}

var indexCounter atomic.Int64

func newCatalogIndex() catalogIndex {
	n := indexCounter.Add(1)
	return newCatalogIndexIn("shop", fmt.Sprintf("cat-%d-%d", GinkgoParallelProcess(), n))
}

// newCatalogIndexIn creates index name in workspace ws, with keys, and waits until both
// replicas serve it.
func newCatalogIndexIn(ws, name string) catalogIndex {
	createIndex(ws, name)
	role := ws + "-" + name
	issueFor(role+"-w", ws, []searchv1alpha1.Scope{"write"}, []string{name}, nil, nil)
	issueFor(role+"-s", ws, []searchv1alpha1.Scope{"search"}, []string{name}, nil, nil)
	ci := catalogIndex{name: name, base: "/api/teams/" + ws + "/indexes/" + name,
		writeKey: keys[role+"-w"], searchKey: keys[role+"-s"], names: esnames.For(ws, name)}
	for i := 0; i < 2; i++ {
		Eventually(func() int { return call(i, "GET", ci.base+"/indexing", ci.writeKey, nil).status }).Should(Equal(http.StatusOK))
		Eventually(func() int { return call(i, "GET", ci.base+"/indexing", ci.searchKey, nil).status }).Should(Equal(http.StatusOK))
	}
	return ci
}

func records(prefix string, n int) []map[string]any {
	out := make([]map[string]any, n)
	for i := range out {
		r := map[string]any{"objectID": fmt.Sprintf("%s-%d", prefix, i), "name": fmt.Sprintf("product %s %d", prefix, i)}
		out[i] = r
	}
	return out
}

func recordsBody(recs []map[string]any) map[string]any { return map[string]any{"records": recs} }

// searchCount counts the records a search sees behind the alias right now.
func searchCount(ci catalogIndex) int64 {
	res, err := esClient.Search().Index(ci.names.Alias()).Size(0).TrackTotalHits(true).Do(ctx)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return res.Hits.Total.Value
}

// physicalIndices lists the physical indices of ci.
func physicalIndices(ci catalogIndex) []string {
	res, err := esClient.Indices.Get(ci.names.PhysicalPattern()).AllowNoIndices(true).Do(ctx)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	var out []string
	for name := range res {
		out = append(out, name)
	}
	return out
}

// writeKubeconfig writes cfg as a kubeconfig file, for apiserver subprocesses.
func writeKubeconfig(cfg *rest.Config) string {
	path := filepath.Join(GinkgoT().TempDir(), "kubeconfig")
	Expect(envtestenv.WriteKubeconfig(cfg, path)).To(Succeed())
	return path
}

var _ = os.Getpid

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }
