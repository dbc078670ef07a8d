package catalog_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/elastic/go-elasticsearch/v8"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/mapping"
	"github.com/aislehq/aisle/test/benchdata"
	"github.com/aislehq/aisle/test/esbackend"
)

// benchIndex creates a SearchIndex's first physical index with its alias, as the operator does.
func benchIndex(b *testing.B, client *elasticsearch.TypedClient, name string) catalog.Target {
	names := esnames.For("bench", name)
	settings := searchv1alpha1.IndexSettings{SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 3}, {Path: "description"}}}
	body, err := mapping.Build(settings)
	if err != nil {
		b.Fatal(err)
	}
	body.Aliases = map[string]any{names.Alias(): map[string]any{}}
	raw, _ := body.JSON()
	if _, err := client.Indices.Create(names.Physical(1)).Raw(bytes.NewReader(raw)).Do(context.Background()); err != nil {
		b.Fatal(err)
	}
	return catalog.Target{Names: names, Settings: settings}
}

func startBackend(b *testing.B) *elasticsearch.TypedClient {
	url, stop, err := esbackend.Start(context.Background(), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = stop() })
	client, err := es.New(url)
	if err != nil {
		b.Fatal(err)
	}
	return client
}

// BenchmarkPutRecords compares PUT /records of 100,000 records of about 1 KB (decode,
// validation and catalog.Replace: fill, swap) with the same documents sent straight to
// _bulk in 1,000-document requests and refreshed.
func BenchmarkPutRecords(b *testing.B) {
	const n = 100_000
	client := startBackend(b)
	docs := benchdata.Products(n)
	body, _ := json.Marshal(map[string]any{"records": docs})
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		direct := benchIndex(b, client, fmt.Sprintf("direct%d", i))
		t0 := time.Now()
		for start := 0; start < n; start += 1000 {
			var buf bytes.Buffer
			for _, d := range docs[start:min(start+1000, n)] {
				var id struct {
					ObjectID string `json:"objectID"`
				}
				_ = json.Unmarshal(d, &id)
				fmt.Fprintf(&buf, "{\"index\":{\"_id\":%q}}\n%s\n", id.ObjectID, d)
			}
			res, err := client.Bulk().Index(direct.Names.Physical(1)).Raw(&buf).Do(ctx)
			if err != nil || res.Errors {
				b.Fatalf("direct bulk: %v", err)
			}
		}
		if _, err := client.Indices.Refresh().Index(direct.Names.Physical(1)).Do(ctx); err != nil {
			b.Fatal(err)
		}
		directTime := time.Since(t0)

		api := benchIndex(b, client, fmt.Sprintf("api%d", i))
		svc := catalog.New(client, catalog.Config{})
		t1 := time.Now()
		var req struct {
			Records []json.RawMessage `json:"records"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			b.Fatal(err)
		}
		recs, err := catalog.ValidateRecords(req.Records, 0, catalog.MaxPutRecords)
		if err != nil {
			b.Fatal(err)
		}
		r, err := svc.Replace(ctx, api, recs)
		if err != nil || r.RecordCount != n {
			b.Fatalf("replace: %v %+v", err, r)
		}
		apiTime := time.Since(t1)
		b.ReportMetric(directTime.Seconds(), "direct_bulk_s")
		b.ReportMetric(apiTime.Seconds(), "put_records_s")
		b.ReportMetric(apiTime.Seconds()/directTime.Seconds(), "ratio")
	}
}

// BenchmarkPostRecords measures POST /records throughput (catalog.Upsert with
// validation) with 1,000-record batches from 4 concurrent clients.
func BenchmarkPostRecords(b *testing.B) {
	const clients, batchesPerClient, batch = 4, 10, 1000
	client := startBackend(b)
	docs := benchdata.Products(clients * batchesPerClient * batch)
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		t := benchIndex(b, client, fmt.Sprintf("post%d", i))
		svc := catalog.New(client, catalog.Config{})
		start := time.Now()
		var wg sync.WaitGroup
		errs := make(chan error, clients)
		for c := 0; c < clients; c++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := 0; k < batchesPerClient; k++ {
					off := (c*batchesPerClient + k) * batch
					recs, err := catalog.ValidateRecords(docs[off:off+batch], 1, catalog.MaxPostRecords)
					if err == nil {
						_, err = svc.Upsert(ctx, t, recs)
					}
					if err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			b.Fatal(err)
		}
		elapsed := time.Since(start)
		b.ReportMetric(float64(len(docs))/elapsed.Seconds(), "records/s")
		b.ReportMetric(elapsed.Seconds(), "total_s")
	}
}
