// Package catalogtest is what the tests of the catalog's packages share: the embedded
// engine, clients whose requests are traced, and a SearchIndex's first physical index
// created as the operator creates it. Tests only; it does not import the catalog, so
// that the catalog's own tests can use it.
package catalogtest

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/elastic/go-elasticsearch/v8"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/indexmapping"
	"github.com/aislehq/aisle/test/esbackend"
	"github.com/aislehq/aisle/test/esspec"
)

// StartEngine starts the embedded engine for the test and returns its URL, behind a
// recorder that fails the test when the service sent a request outside Elasticsearch's
// specification.
func StartEngine(tb testing.TB) string {
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

// Client starts the embedded engine for the test and returns a client of it.
func Client(tb testing.TB) *elasticsearch.TypedClient {
	tb.Helper()
	client, err := es.New(StartEngine(tb))
	if err != nil {
		tb.Fatal(err)
	}
	return client
}

// CreateIndex creates the first physical index of names with its alias, from settings,
// as the operator does.
func CreateIndex(tb testing.TB, client *elasticsearch.TypedClient, names esnames.Index, settings searchv1alpha1.IndexSettings) {
	tb.Helper()
	if err := Create(context.Background(), client, names, settings); err != nil {
		tb.Fatal(err)
	}
}

// Create is CreateIndex for specs that report their own failures.
func Create(ctx context.Context, client *elasticsearch.TypedClient, names esnames.Index, settings searchv1alpha1.IndexSettings) error {
	body, err := indexmapping.Build(settings)
	if err != nil {
		return err
	}
	body.Aliases = map[string]any{names.Alias(): map[string]any{}}
	raw, _ := body.JSON()
	_, err = client.Indices.Create(names.Physical(1)).Raw(bytes.NewReader(raw)).Do(ctx)
	return err
}

// Tracer records the requests a client sends to the backend, as "METHOD path?query"
// with the SearchIndex's name prefix cut, so that tests can list a write's round trips.
type Tracer struct {
	mu   sync.Mutex
	reqs []string
	next http.RoundTripper
}

// RoundTrip records r and sends it.
func (t *Tracer) RoundTrip(r *http.Request) (*http.Response, error) {
	line := r.Method + " " + r.URL.Path
	if r.URL.RawQuery != "" {
		line += "?" + r.URL.RawQuery
	}
	t.mu.Lock()
	t.reqs = append(t.reqs, line)
	t.mu.Unlock()
	return t.next.RoundTrip(r)
}

// Take returns the requests recorded since the last Take, with prefix removed.
func (t *Tracer) Take(prefix string) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]string, len(t.reqs))
	for i, r := range t.reqs {
		out[i] = strings.ReplaceAll(r, prefix, "")
	}
	t.reqs = nil
	return out
}

// TracedClient is a client of url whose requests t records.
func TracedClient(tb testing.TB, url string, t *Tracer) *elasticsearch.TypedClient {
	tb.Helper()
	t.next = http.DefaultTransport
	client, err := elasticsearch.NewTypedClient(elasticsearch.Config{Addresses: []string{url}, Transport: t})
	if err != nil {
		tb.Fatal(err)
	}
	return client
}
