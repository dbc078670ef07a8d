package engine_test

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand"
	"net/http"
	"strings"
	"testing"

	"github.com/aislehq/aisle/internal/engine"
)

// highlightBenchMapping maps products as the product does: language-analyzed text with an
// unstemmed `words` subfield.
const highlightBenchMapping = `{"mappings":{"properties":{
 "title":{"type":"text","analyzer":"english","fields":{"words":{"type":"text","analyzer":"standard"}}},
 "description":{"type":"text","analyzer":"english","fields":{"words":{"type":"text","analyzer":"standard"}}},
 "brand":{"type":"keyword"}}}}`

// BenchmarkHighlight searches 2,000 products for 20 hits, without highlighting and with
// the two text fields highlighted (title whole with its words subfield's matches,
// description in passages), in-process over HTTP. Run with:
// go test -run='^$' -bench=BenchmarkHighlight -benchmem ./internal/engine/
func BenchmarkHighlight(b *testing.B) {
	srv, err := engine.Start(ctx, engine.Config{DataDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close() //nolint:errcheck // the benchmark's engine
	post(b, srv.URL()+"/products", http.MethodPut, highlightBenchMapping)
	r := rand.New(rand.NewSource(1))
	zipf := rand.NewZipf(r, 1.1, 1, uint64(len(vocabulary)-1))
	var bulk strings.Builder
	for i := 0; i < 2000; i++ {
		d := productDoc(r, zipf, i)
		line, _ := json.Marshal(map[string]any{"title": d["title"], "description": d["description"], "brand": d["brand"]})
		bulk.WriteString(`{"index":{}}` + "\n" + string(line) + "\n")
	}
	post(b, srv.URL()+"/products/_bulk?refresh=true", http.MethodPost, bulk.String())
	query := `"size":20,"query":{"bool":{"should":[{"match":{"title":"jacket boots"}},{"match":{"title.words":{"query":"jackte","fuzziness":1}}},
		{"match":{"description":"` + vocabulary[0] + ` jacket"}}]}}`
	highlight := `,"highlight":{"encoder":"html","fields":{"title":{"number_of_fragments":0,"matched_fields":["title","title.words"]},"description":{}}}`
	for _, c := range []struct{ name, body string }{
		{"none", "{" + query + "}"},
		{"title+description", "{" + query + highlight + "}"},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				post(b, srv.URL()+"/products/_search", http.MethodPost, c.body)
			}
		})
	}
}

func post(b *testing.B, url, method, body string) {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close() //nolint:errcheck // read to the end below
	out, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		b.Fatalf("%s %s: %d %s", method, url, res.StatusCode, out)
	}
	if bytes.Contains(out, []byte(`"errors":true`)) {
		b.Fatalf("bulk errors: %.300s", out)
	}
}
