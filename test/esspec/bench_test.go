package esspec_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aislehq/aisle/test/esspec"
)

// BenchmarkRecordedBulk sends a 1,000-document bulk straight to a backend and through a
// Recorder, to show what recording costs a request.
func BenchmarkRecordedBulk(b *testing.B) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = w.Write([]byte(`{}`))
	}))
	defer backend.Close()
	spec, err := esspec.Default()
	if err != nil {
		b.Fatal(err)
	}
	rec, err := esspec.NewRecorder(spec, backend.URL, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	body := []byte(strings.Repeat("{\"index\":{\"_index\":\"products\",\"_id\":\"x\"}}\n{\"title\":\"a product of some length\",\"price\":12.5}\n", 1000))
	for name, url := range map[string]string{"direct": backend.URL, "recorded": rec.URL()} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for i := 0; i < b.N; i++ {
				res, err := http.Post(url+"/_bulk", "application/x-ndjson", bytes.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, res.Body)
				_ = res.Body.Close()
			}
		})
	}
	if err := rec.Close(); err != nil {
		b.Fatal(err)
	}
}
