package yamlrest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
)

// fakeES is a tiny in-memory stand-in for an Elasticsearch server: enough
// of GET /, document index/get and index list/delete for the self-test.
// break_ selects a deliberately wrong answer.
type fakeES struct {
	mu     sync.Mutex
	docs   map[string]map[string]any // index -> id -> source
	break_ string
}

func newFakeES() *fakeES { return &fakeES{docs: map[string]map[string]any{}} }

func (f *fakeES) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Elastic-Product", "Elasticsearch")
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	switch {
	case r.URL.Path == "/":
		reply(w, 200, map[string]any{"version": map[string]any{"number": "8.15.0"}})
	case len(parts) == 1 && r.Method == http.MethodGet:
		all := map[string]any{}
		for name := range f.docs {
			all[name] = map[string]any{}
		}
		reply(w, 200, all)
	case len(parts) == 1 && r.Method == http.MethodDelete:
		for _, name := range strings.Split(parts[0], ",") {
			delete(f.docs, name)
		}
		reply(w, 200, map[string]any{"acknowledged": true})
	case len(parts) == 3 && parts[1] == "_doc":
		f.doc(w, r, parts[0], parts[2])
	default:
		reply(w, 400, map[string]any{"error": map[string]any{"type": "illegal_argument_exception", "reason": "no handler"}, "status": 400})
	}
}

func (f *fakeES) doc(w http.ResponseWriter, r *http.Request, index, id string) {
	if r.Method == http.MethodPut || r.Method == http.MethodPost {
		var src map[string]any
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &src)
		if f.docs[index] == nil {
			f.docs[index] = map[string]any{}
		}
		f.docs[index][id] = src
		reply(w, 201, map[string]any{"_index": index, "_id": id, "result": "created", "_seq_no": 0})
		return
	}
	src, ok := f.docs[index][id]
	switch {
	case f.break_ == "status":
		reply(w, 500, map[string]any{"error": map[string]any{"type": "boom", "reason": "broken"}, "status": 500})
	case f.break_ == "found" || ok:
		if f.break_ == "value" {
			src = map[string]any{"foo": "baz", "n": 1}
		}
		reply(w, 200, map[string]any{"_index": index, "_id": id, "found": true, "_source": src})
	default:
		reply(w, 404, map[string]any{"_index": index, "_id": id, "found": false})
	}
}

func reply(w http.ResponseWriter, status int, body any) {
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

// Specs trimmed from the Elasticsearch REST API specs the suite uses.
var fakeSpecs = map[string]string{
	"info.json": `{"info":{"url":{"paths":[{"path":"/","methods":["GET"]}]},"params":{}}}`,
	"index.json": `{"index":{"url":{"paths":[{"path":"/{index}/_doc/{id}","methods":["PUT","POST"],"parts":{"index":{},"id":{}}},
		{"path":"/{index}/_doc","methods":["POST"],"parts":{"index":{}}}]},"params":{"refresh":{}},"body":{"required":true}}}`,
	"get.json":            `{"get":{"url":{"paths":[{"path":"/{index}/_doc/{id}","methods":["GET"],"parts":{"index":{},"id":{}}}]},"params":{"realtime":{}}}}`,
	"indices.get.json":    `{"indices.get":{"url":{"paths":[{"path":"/{index}","methods":["GET"],"parts":{"index":{}}}]},"params":{"expand_wildcards":{}}}}`,
	"indices.delete.json": `{"indices.delete":{"url":{"paths":[{"path":"/{index}","methods":["DELETE"],"parts":{"index":{}}}]},"params":{}}}`,
	"_common.json":        `{"params":{"pretty":{}}}`,
}
