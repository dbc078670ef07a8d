package catalog

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/elastic/go-elasticsearch/v8"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"

	"github.com/aislehq/aisle/test/esbackend"
	"github.com/aislehq/aisle/test/esspec"
)

// tracer records the requests a client sends to the backend, as "METHOD path?query"
// with the SearchIndex's name prefix cut, so that tests can list a write's round trips.
type tracer struct {
	mu   sync.Mutex
	reqs []string
	next http.RoundTripper
}

func (t *tracer) RoundTrip(r *http.Request) (*http.Response, error) {
	line := r.Method + " " + r.URL.Path
	if r.URL.RawQuery != "" {
		line += "?" + r.URL.RawQuery
	}
	t.mu.Lock()
	t.reqs = append(t.reqs, line)
	t.mu.Unlock()
	return t.next.RoundTrip(r)
}

// take returns the requests recorded since the last take, with prefix removed.
func (t *tracer) take(prefix string) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]string, len(t.reqs))
	for i, r := range t.reqs {
		out[i] = strings.ReplaceAll(r, prefix, "")
	}
	t.reqs = nil
	return out
}

// startEngine starts the embedded engine for the test and returns its URL, behind a
// recorder that fails the test when the service sent a request outside Elasticsearch's
// specification.
func startEngine(tb testing.TB) string {
	tb.Helper()
	url, stop, err := esbackend.Start(context.Background(), tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = stop() })
	rec, err := esspec.Record(url, io.Discard)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := rec.Close(); err != nil {
			tb.Error(err)
		}
	})
	return rec.URL()
}

// tracedClient is a client of url whose requests t records.
func tracedClient(tb testing.TB, url string, t *tracer) *elasticsearch.TypedClient {
	tb.Helper()
	t.next = http.DefaultTransport
	client, err := elasticsearch.NewTypedClient(elasticsearch.Config{Addresses: []string{url}, Transport: t})
	if err != nil {
		tb.Fatal(err)
	}
	return client
}

// replicaPair is two services on one engine, as two API server replicas, each with its
// tracer, and an index named name.
type replicaPair struct {
	a, b           *Service
	traceA, traceB *tracer
	tg             Target
}

func newReplicaPair(t *testing.T, name string, cfgA, cfgB Config) replicaPair {
	t.Helper()
	url := startEngine(t)
	p := replicaPair{traceA: &tracer{}, traceB: &tracer{}}
	p.a, p.b = New(tracedClient(t, url, p.traceA), cfgA), New(tracedClient(t, url, p.traceB), cfgB)
	p.tg = newTarget(t, p.a.es, "pair", name, searchv1alpha1.IndexSettings{})
	return p
}
