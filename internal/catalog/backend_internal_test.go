package catalog

import (
	"bytes"
	"context"
	"testing"

	"github.com/elastic/go-elasticsearch/v8"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// startBackend starts the embedded engine for the test and returns a client of it.
func startBackend(tb testing.TB) *elasticsearch.TypedClient {
	tb.Helper()
	client, err := es.New(startEngine(tb))
	if err != nil {
		tb.Fatal(err)
	}
	return client
}

// newTarget creates a SearchIndex's first physical index with its alias, as the operator
// does.
func newTarget(tb testing.TB, client *elasticsearch.TypedClient, ws, name string, settings searchv1alpha1.IndexSettings) Target {
	tb.Helper()
	names := esnames.For(ws, name)
	body, err := indexmapping.Build(settings)
	if err != nil {
		tb.Fatal(err)
	}
	body.Aliases = map[string]any{names.Alias(): map[string]any{}}
	raw, _ := body.JSON()
	if _, err := client.Indices.Create(names.Physical(1)).Raw(bytes.NewReader(raw)).Do(context.Background()); err != nil {
		tb.Fatal(err)
	}
	return Target{Names: names, Settings: settings}
}
