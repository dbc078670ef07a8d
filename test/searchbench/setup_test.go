// Package searchbench measures POST /search and public search against the same query
// sent straight to the engine's _search, on 100,000 records (make bench).
package searchbench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/apiserver"
	"github.com/aislehq/aisle/controllers"
	"github.com/aislehq/aisle/internal/apikey"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/search"
	"github.com/aislehq/aisle/internal/settingsfence"
	"github.com/aislehq/aisle/internal/tenancy"
	"github.com/aislehq/aisle/internal/usage"
	"github.com/aislehq/aisle/test/benchdata"
	"github.com/aislehq/aisle/test/envtestenv"
	"github.com/aislehq/aisle/test/esbackend"
)

const (
	records = 100_000
	origin  = "http://shop.bench"
)

var settings = searchv1alpha1.IndexSettings{
	SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 3}, {Path: "description", Weight: 1}},
	FilterableFields: []searchv1alpha1.FieldPath{"brand", "price"},
	FacetFields:      []searchv1alpha1.FieldPath{"brand"},
	SortableFields:   []searchv1alpha1.FieldPath{"price"},
	CustomRanking:    []searchv1alpha1.RankingRule{{Field: "popularity", Order: searchv1alpha1.SortDescending}},
}

// system is everything a benchmark talks to.
type system struct {
	engineURL, apiURL, alias, key, publicID string
	searchSvc                               *search.Service
}

// start runs the engine, a Kubernetes API server, and the API server on loopback, with
// one index of 100,000 records of about 1 KB.
func start(b *testing.B, ctx context.Context) system {
	return startWith(b, ctx, settings)
}

// startWith is start with the index's settings s.
func startWith(b *testing.B, ctx context.Context, s searchv1alpha1.IndexSettings) system {
	return startLoaded(b, ctx, s, load)
}

// startLoaded is startWith with the records written by loader.
func startLoaded(b *testing.B, ctx context.Context, s searchv1alpha1.IndexSettings,
	loader func(*testing.B, context.Context, *elasticsearch.TypedClient, string)) system {
	b.Helper()
	ctrllog.SetLogger(logr.Discard())
	engineURL, stopES, err := esbackend.Start(ctx, b.TempDir())
	must(b, err)
	b.Cleanup(func() { _ = stopES() })
	esClient, err := es.New(engineURL)
	must(b, err)
	env, err := envtestenv.New()
	must(b, err)
	cfg, err := env.Start()
	must(b, err)
	b.Cleanup(func() { _ = env.Stop() })
	k8s, err := client.New(cfg, client.Options{Scheme: env.Scheme})
	must(b, err)

	names := esnames.For("bench", "products")
	sys := system{engineURL: engineURL, alias: names.Alias(), publicID: "pub-bench"}
	sys.key = createTenant(b, ctx, k8s, s)
	_, err = (&controllers.Backend{ES: esClient}).EnsureIndex(ctx, names, s)
	must(b, err)
	loader(b, ctx, esClient, names.Alias())

	registry, err := tenancy.NewRegistry(ctx, cfg, env.Scheme, clock.RealClock{})
	must(b, err)
	go func() { _ = registry.Start(ctx) }()
	registry.WaitForSync(ctx)
	sys.searchSvc = search.New(esClient)
	meter := usage.New(esClient, esnames.Usage(esnames.DefaultPrefix))
	go meter.Run(ctx, time.Second)
	srv := apiserver.New(apiserver.Config{
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Search: sys.searchSvc, Usage: meter,
		// Limits far above the load, so that the limiter runs but never refuses.
		PublicLimits: apiserver.PublicLimits{PerVisitor: 1 << 30, PerIndex: 1 << 30},
		// As apiserver.Run wires them: every search checks the index's settings mark.
		Marks: settingsfence.NewMarks(esClient, settingsfence.DefaultBound),
	}, registry)
	srv.SetReady(true)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(b, err)
	go func() { _ = srv.Serve(ln) }()
	b.Cleanup(func() { _ = srv.App().Shutdown() })
	sys.apiURL = "http://" + ln.Addr().String()
	return sys
}

func createTenant(b *testing.B, ctx context.Context, k8s client.Client, settings searchv1alpha1.IndexSettings) string {
	must(b, k8s.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "bench"}}))
	must(b, k8s.Create(ctx, &searchv1alpha1.Workspace{ObjectMeta: metav1.ObjectMeta{Name: "bench"},
		Spec: searchv1alpha1.WorkspaceSpec{Plan: searchv1alpha1.PlanLimits{MonthlySearches: 1 << 40}}}))
	idx := &searchv1alpha1.SearchIndex{ObjectMeta: metav1.ObjectMeta{Namespace: "bench", Name: "products"},
		Spec: searchv1alpha1.SearchIndexSpec{AllowedOrigins: []searchv1alpha1.Origin{origin}, Settings: settings,
			PublicAccess: &searchv1alpha1.PublicAccess{Policy: &searchv1alpha1.PublicSearchPolicy{
				MaxHits: 20, AllowedFacets: []searchv1alpha1.FieldPath{"brand"}, AllowedFilters: []searchv1alpha1.FieldPath{"price"}}}}}
	must(b, k8s.Create(ctx, idx))
	idx.Status.PublicID = "pub-bench"
	must(b, k8s.Status().Update(ctx, idx))
	key, err := apikey.New()
	must(b, err)
	k := &searchv1alpha1.APIKey{ObjectMeta: metav1.ObjectMeta{Namespace: "bench", Name: "search"},
		Spec: searchv1alpha1.APIKeySpec{Scopes: []searchv1alpha1.Scope{"search"}, Indexes: []string{"products"}}}
	must(b, k8s.Create(ctx, k))
	k.Status.Current = &searchv1alpha1.IssuedKey{Prefix: apikey.Prefix(key), Hash: apikey.Hash(key), IssuedAt: metav1.Now()}
	must(b, k8s.Status().Update(ctx, k))
	return key
}

// vocabulary is the catalog's (see benchdata.Catalog).
var vocabulary = benchdata.Vocabulary

// load writes the records as the catalog stores them (with their version field).
func load(b *testing.B, ctx context.Context, c *elasticsearch.TypedClient, alias string) {
	bulkLoad(b, ctx, c, alias, 1000, func(_ int, doc []byte) []byte { return doc })
}

// bulkLoad writes the catalog's records, each as shape makes it, in bulks of batch, and
// refreshes.
func bulkLoad(b *testing.B, ctx context.Context, c *elasticsearch.TypedClient, alias string, batch int, shape func(i int, doc []byte) []byte) {
	var body bytes.Buffer
	for i, doc := range benchdata.Catalog(records) {
		fmt.Fprintf(&body, "{\"index\":{\"_id\":\"sku-%06d\"}}\n%s\n", i, shape(i, doc))
		if (i+1)%batch != 0 && i+1 != records {
			continue
		}
		res, err := c.Bulk().Index(alias).Raw(&body).Do(ctx)
		must(b, err)
		if res.Errors {
			b.Fatal("bulk load failed")
		}
		body = bytes.Buffer{}
	}
	_, err := c.Indices.Refresh().Index(alias).Do(ctx)
	must(b, err)
}

func must(b *testing.B, err error) {
	b.Helper()
	if err != nil {
		b.Fatal(err)
	}
}
