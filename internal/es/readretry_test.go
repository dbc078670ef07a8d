package es_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/elastic/go-elasticsearch/v8"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/es"
)

// cuttingBackend answers every request with answer, the first cuts of them cut off after
// their headers and a few bytes (the connection closed), as a proxy was seen to do.
type cuttingBackend struct {
	*httptest.Server
	mu   sync.Mutex
	cuts int
	// sent are the requests received, as "METHOD path body".
	sent []string
}

const answer = `{"hits": {"total": {"value": 1}, "hits": []}, "docs": [], "count": 1, "responses": [], "items": [], "found": true, "_id": "1", "result": "created"}`

func newCuttingBackend(cuts int) *cuttingBackend {
	b := &cuttingBackend{cuts: cuts}
	b.Server = httptest.NewServer(http.HandlerFunc(b.serve))
	return b
}

func (b *cuttingBackend) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	b.mu.Lock()
	b.sent = append(b.sent, strings.TrimSpace(r.Method+" "+r.URL.Path+" "+string(body)))
	cut := len(b.sent) <= b.cuts
	b.mu.Unlock()
	if !cut {
		w.Header().Set("X-Elastic-Product", "Elasticsearch")
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, answer)
		return
	}
	conn, buf, err := w.(http.Hijacker).Hijack()
	Expect(err).NotTo(HaveOccurred())
	defer func() { _ = conn.Close() }()
	_, _ = fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nX-Elastic-Product: Elasticsearch\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(answer), answer[:10])
	_ = buf.Flush()
}

func (b *cuttingBackend) requests() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.sent...)
}

type call func(ctx context.Context, c *elasticsearch.TypedClient) (*http.Response, error)

var (
	search = func(ctx context.Context, c *elasticsearch.TypedClient) (*http.Response, error) {
		return c.Search().Index("i").Raw(strings.NewReader(`{"size": 1}`)).Perform(ctx)
	}
	count = func(ctx context.Context, c *elasticsearch.TypedClient) (*http.Response, error) {
		return c.Count().Index("i").Raw(strings.NewReader(`{"query": {"match_all": {}}}`)).Perform(ctx)
	}
	mget = func(ctx context.Context, c *elasticsearch.TypedClient) (*http.Response, error) {
		return c.Mget().Index("i").Raw(strings.NewReader(`{"ids": ["1"]}`)).Perform(ctx)
	}
	msearch = func(ctx context.Context, c *elasticsearch.TypedClient) (*http.Response, error) {
		return c.Msearch().Raw(strings.NewReader("{\"index\": \"i\"}\n{}\n")).Perform(ctx)
	}
	get = func(ctx context.Context, c *elasticsearch.TypedClient) (*http.Response, error) {
		return c.Get("i", "1").Perform(ctx)
	}
	bulk = func(ctx context.Context, c *elasticsearch.TypedClient) (*http.Response, error) {
		return c.Bulk().Raw(strings.NewReader("{\"index\": {\"_index\": \"i\", \"_id\": \"1\"}}\n{}\n")).Perform(ctx)
	}
	put = func(ctx context.Context, c *elasticsearch.TypedClient) (*http.Response, error) {
		return c.Index("i").Id("1").Raw(bytes.NewReader([]byte(`{"a": 1}`))).Perform(ctx)
	}
)

var _ = Describe("A request whose answer is cut off", func() {
	send := func(cuts int, c call) ([]byte, error, []string) {
		b := newCuttingBackend(cuts)
		defer b.Close()
		client, err := es.New(b.URL)
		Expect(err).NotTo(HaveOccurred())
		raw, err := es.ReadBody(c(context.Background(), client))
		return raw, err, b.requests()
	}

	DescribeTable("is sent again, with its body, when it only reads",
		func(c call) {
			raw, err, sent := send(1, c)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(raw)).To(Equal(answer))
			Expect(sent).To(HaveLen(2))
			Expect(sent[1]).To(Equal(sent[0]), "the second request is the first's, body included")
		},
		Entry("a search", call(search)),
		Entry("a count", call(count)),
		Entry("an _mget", call(mget)),
		Entry("an _msearch", call(msearch)),
		Entry("a get by ID", call(get)),
	)

	DescribeTable("is never sent again when it writes, and fails as the backend being unavailable",
		func(c call) {
			_, err, sent := send(1, c)
			Expect(err).To(MatchError(es.ErrUnavailable))
			Expect(err).To(MatchError(io.ErrUnexpectedEOF))
			Expect(sent).To(HaveLen(1))
		},
		Entry("a _bulk", call(bulk)),
		Entry("a PUT of a document", call(put)),
	)

	It("is sent three times at most, then fails as the backend being unavailable", func() {
		_, err, sent := send(10, call(search))
		Expect(err).To(MatchError(es.ErrUnavailable))
		Expect(sent).To(HaveLen(3))
	})
})
