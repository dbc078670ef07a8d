package esspec_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/test/esspec"
)

var _ = Describe("Recording the requests sent to a backend", func() {
	var (
		rec      *esspec.Recorder
		received atomic.Int64 // body bytes the backend read
	)

	BeforeEach(func() {
		backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n, _ := io.Copy(io.Discard, r.Body)
			received.Add(n)
			w.Header().Set("X-Elastic-Product", "Elasticsearch")
			_, _ = w.Write([]byte(`{}`))
		}))
		DeferCleanup(backend.Close)
		var err error
		rec, err = esspec.NewRecorder(spec, backend.URL, GinkgoWriter)
		Expect(err).NotTo(HaveOccurred())
	})

	send := func(method, path, body string) {
		var rd io.Reader
		if body != "" {
			// A reader without a length goes chunked, as a streamed bulk does.
			rd = io.MultiReader(strings.NewReader(body))
		}
		r, err := http.NewRequest(method, rec.URL()+path, rd)
		Expect(err).NotTo(HaveOccurred())
		res, err := http.DefaultClient.Do(r)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.StatusCode).To(Equal(http.StatusOK))
		Expect(res.Body.Close()).To(Succeed())
	}

	It("passes every request through and counts it, refusing none within the specification", func() {
		send("PUT", "/products", `{"settings":{"number_of_shards":1}}`)
		send("POST", "/_bulk", strings.Repeat("{\"index\":{\"_index\":\"products\"}}\n{\"title\":\"a\"}\n", 1000))
		send("GET", "/products/_search", "")
		Expect(rec.Count()).To(BeEquivalentTo(3))
		Expect(received.Load()).To(BeNumerically(">", 40000))
		Expect(rec.Close()).To(Succeed())
	})

	It("names each request outside the specification when it closes", func() {
		send("GET", "/products/_search?prefix_length=2", "")
		send("POST", "/_bulk", "{\"index\":{}}\n{\"a\":1}\n{\"index\":{}}\n{broken\n")
		send("POST", "/products/_search", `{"query":{"match_all":{}}}`)
		err := rec.Close()
		Expect(err).To(MatchError(ContainSubstring("2 of 3 requests")))
		Expect(err).To(MatchError(ContainSubstring("GET /products/_search?prefix_length=2: [search] unknown query parameter [prefix_length]")))
		Expect(err).To(MatchError(ContainSubstring("POST /_bulk: [bulk] line 4: the source is not a JSON object")))
	})
})
