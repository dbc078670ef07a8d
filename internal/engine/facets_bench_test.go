package engine_test

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aislehq/aisle/internal/engine"
)

// facetsBenchMapping is benchMapping's products with a group field: the product a
// variant (a size, a colour) belongs to, three variants a product.
const facetsBenchMapping = `{"mappings":{"properties":{
 "sku":{"type":"keyword"},"group":{"type":"keyword"},"title":{"type":"text"},"description":{"type":"text"},
 "brand":{"type":"keyword"},"category":{"type":"keyword"},"price":{"type":"float"},"stock":{"type":"long"},
 "rating":{"type":"float"},"created":{"type":"date"},"tags":{"type":"keyword"}}}}`

// BenchmarkFacets compares, at 100,000 products (AISLE_BENCH_DOCS), a plain faceted
// search (terms on brand, category and tags) with the disjunctive one a refinement page
// asks: a selection in each facet as post_filter, each facet's terms under a filter of
// the other facets' selections, stats on price, and the hits collapsed on the product
// group. Each runs for every document (match_all) and for a text query, in-process over
// HTTP. Run with:
// go test -run='^$' -bench=BenchmarkFacets -benchmem ./internal/engine/
func BenchmarkFacets(b *testing.B) {
	srv, err := engine.Start(ctx, engine.Config{DataDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close() //nolint:errcheck // the benchmark's engine
	post(b, srv.URL()+"/products", http.MethodPut, facetsBenchMapping)
	indexGroupedProducts(b, srv.URL(), envInt("AISLE_BENCH_DOCS", 100000))
	for _, q := range []struct{ name, query string }{
		{"all", `{"match_all":{}}`},
		{"text", `{"match":{"title":"classic jacket"}}`},
	} {
		for _, c := range []struct{ name, body string }{
			{"plain", plainFacets(q.query)},
			{"disjunctive", disjunctiveFacets(q.query)},
		} {
			warmUp(b, srv.URL(), c.body)
			b.Run(q.name+"/"+c.name, func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					post(b, srv.URL()+"/products/_search", http.MethodPost, c.body)
				}
			})
		}
	}
}

// warmUp searches for a second, not timed: the first searches build the fields' columns,
// and those after merges build the merged segments' columns.
func warmUp(b *testing.B, url, body string) {
	for began := time.Now(); time.Since(began) < time.Second; {
		post(b, url+"/products/_search", http.MethodPost, body)
	}
}

// indexGroupedProducts indexes n generated products, three to a group, and refreshes.
func indexGroupedProducts(b *testing.B, url string, n int) {
	r := rand.New(rand.NewSource(42))
	zipf := rand.NewZipf(r, 1.1, 10, uint64(len(vocabulary)-1))
	var bulk strings.Builder
	for i := 0; i < n; i++ {
		d := productDoc(r, zipf, i)
		d["group"] = fmt.Sprintf("g-%06d", i/3)
		line, _ := json.Marshal(d)
		fmt.Fprintf(&bulk, "{\"index\":{\"_id\":\"%d\"}}\n%s\n", i, line)
		if (i+1)%1000 == 0 || i == n-1 {
			post(b, url+"/products/_bulk", http.MethodPost, bulk.String())
			bulk.Reset()
		}
	}
	post(b, url+"/products/_refresh", http.MethodPost, "")
}

// The shopper's selections: ten brands (5% of the documents), ten categories (25%) and
// five tags.
var (
	benchBrands     = `{"terms":{"brand":["brand-001","brand-012","brand-023","brand-034","brand-045","brand-056","brand-067","brand-078","brand-089","brand-090"]}}`
	benchCategories = `{"terms":{"category":["cat-01","cat-03","cat-05","cat-07","cat-09","cat-11","cat-13","cat-15","cat-17","cat-19"]}}`
	benchTags       = `{"terms":{"tags":["classic","jacket","amber","river","wool"]}}`
)

func plainFacets(query string) string {
	return `{"size":20,"query":` + query + `,"aggs":{"brand":{"terms":{"field":"brand"}},
		"category":{"terms":{"field":"category"}},"tags":{"terms":{"field":"tags"}}}}`
}

func disjunctiveFacets(query string) string {
	filter := func(clauses ...string) string { return `{"bool":{"filter":[` + strings.Join(clauses, ",") + `]}}` }
	return `{"size":20,"query":` + query + `,"post_filter":` + filter(benchBrands, benchCategories, benchTags) + `,
		"collapse":{"field":"group"},
		"aggs":{"brand":{"filter":` + filter(benchCategories, benchTags) + `,"aggs":{"v":{"terms":{"field":"brand"}}}},
		"category":{"filter":` + filter(benchBrands, benchTags) + `,"aggs":{"v":{"terms":{"field":"category"}}}},
		"tags":{"filter":` + filter(benchBrands, benchCategories) + `,"aggs":{"v":{"terms":{"field":"tags"}}}},
		"price":{"stats":{"field":"price"}}}}`
}
