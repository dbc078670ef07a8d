package catalog

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/elastic/go-elasticsearch/v8"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/catalog/catalogtest"
	"github.com/aislehq/aisle/internal/esnames"
)

// startBackend starts the embedded engine for the test and returns a client of it.
func startBackend(tb testing.TB) *elasticsearch.TypedClient { return catalogtest.Client(tb) }

// newTarget creates a SearchIndex's first physical index with its alias, as the operator
// does.
func newTarget(tb testing.TB, client *elasticsearch.TypedClient, ws, name string, settings searchv1alpha1.IndexSettings) Target {
	tb.Helper()
	names := esnames.For(ws, name)
	catalogtest.CreateIndex(tb, client, names, settings)
	return Target{Names: names, Settings: settings}
}

func crashRecords(prefix string, n int) []Record {
	out := make([]Record, n)
	for i := range out {
		raw, _ := json.Marshal(map[string]any{"objectID": fmt.Sprintf("%s-%d", prefix, i), "name": prefix})
		out[i] = Record{ID: fmt.Sprintf("%s-%d", prefix, i), Raw: raw}
	}
	return out
}
