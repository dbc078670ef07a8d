package openapicheck_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/aislehq/aisle/internal/repo"
)

// The OpenAPI document lists every 4xx each endpoint can give (issue 15), by code: a
// 4XX range would let the response checks accept any of them. The codes each endpoint
// must list follow the API server's middleware: any request can meet the read timeout
// (408), a body over its limit (413) and headers over theirs (431); keyed endpoints
// check the Content-Type before the key (415, 401, 403, 404), their preflights only the
// Content-Type; public ones the public ID
// and Origin (404, 403) and, but for preflights, a rate limit (429); an endpoint that
// takes a body or parameters refuses bad ones (400).
func TestDocumentListsEveryErrorEachEndpointCanGive(t *testing.T) {
	for path, item := range loadDocument(t).Paths {
		for method, raw := range item {
			if method == "parameters" {
				continue
			}
			var op operation
			if err := json.Unmarshal(raw, &op); err != nil {
				t.Fatalf("%s %s: %v", method, path, err)
			}
			name := strings.ToUpper(method) + " " + path
			for _, code := range mustList(path, method, op, takesParameters(item)) {
				if _, ok := op.Responses[code]; !ok {
					t.Errorf("%s does not list %s", name, code)
				}
			}
			for code := range op.Responses {
				if strings.HasPrefix(code, "4") && strings.HasSuffix(code, "XX") {
					t.Errorf("%s lists the range %s: list each code", name, code)
				}
			}
		}
	}
}

type operation struct {
	Responses   map[string]any `json:"responses"`
	RequestBody any            `json:"requestBody"`
}

type document struct {
	Paths map[string]map[string]json.RawMessage `json:"paths"`
}

// takesParameters says whether a path item takes an identifier or a query parameter a
// client can get wrong.
func takesParameters(item map[string]json.RawMessage) bool {
	var params []struct {
		Name string `json:"name"`
		In   string `json:"in"`
	}
	_ = json.Unmarshal(item["parameters"], &params)
	for _, p := range params {
		if p.In == "query" || p.Name == "objectID" || p.Name == "stageId" || p.Name == "batchId" || p.Name == "ruleId" {
			return true
		}
	}
	return false
}

func loadDocument(t *testing.T) document {
	t.Helper()
	root, err := repo.Root()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(root, "docs", "openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc document
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Paths) < 15 {
		t.Fatalf("read %d paths: not the API's document", len(doc.Paths))
	}
	return doc
}

// mustList is the 4xx codes an operation can give whatever its handler does.
func mustList(path, method string, op operation, parameters bool) []string {
	codes := []string{"408", "413", "431"}
	switch {
	case strings.HasPrefix(path, "/api/teams/") && method == "options":
		codes = append(codes, "415") // a keyed preflight checks no key (issue 22)
	case strings.HasPrefix(path, "/api/teams/"):
		codes = append(codes, "401", "403", "404", "415")
	case strings.HasPrefix(path, "/api/public/"):
		codes = append(codes, "403", "404")
		if method != "options" {
			codes = append(codes, "429")
		}
	}
	if method != "options" && (op.RequestBody != nil || parameters) {
		codes = append(codes, "400")
	}
	return codes
}
