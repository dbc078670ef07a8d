package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/test/benchdata"
)

var benchSettings = searchv1alpha1.IndexSettings{SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 3}, {Path: "description"}}}

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
		direct := newTarget(b, client, "bench", fmt.Sprintf("direct%d", i), benchSettings)
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

		api := newTarget(b, client, "bench", fmt.Sprintf("api%d", i), benchSettings)
		svc := New(client, Config{})
		t1 := time.Now()
		var req struct {
			Records []json.RawMessage `json:"records"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			b.Fatal(err)
		}
		recs, err := ValidateRecords(req.Records, 0, MaxPutRecords)
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
		t := newTarget(b, client, "bench", fmt.Sprintf("post%d", i), benchSettings)
		svc := New(client, Config{})
		start := time.Now()
		var wg sync.WaitGroup
		errs := make(chan error, clients)
		for c := 0; c < clients; c++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := 0; k < batchesPerClient; k++ {
					off := (c*batchesPerClient + k) * batch
					recs, err := ValidateRecords(docs[off:off+batch], 1, MaxPostRecords)
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
