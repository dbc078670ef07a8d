// Package openapicheck validates real HTTP responses against docs/openapi.yaml (OpenAPI
// 3.1, whose schemas are JSON Schema 2020-12): it finds the operation by path template
// and method, the response by status (exact, then 4XX-style, then default), and checks
// the JSON body with a 2020-12 validator.
package openapicheck

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"sigs.k8s.io/yaml"
)

const docURL = "mem://openapi.json"

// Validator checks responses against one OpenAPI document.
type Validator struct {
	doc      map[string]any
	compiler *jsonschema.Compiler
	mu       sync.Mutex
	schemas  map[string]*jsonschema.Schema
}

// Load reads an OpenAPI document (YAML or JSON).
func Load(path string) (*Validator, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	js, err := yaml.YAMLToJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("parsing %s: %w", path, err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		return nil, fmt.Errorf("decoding %s: %w", path, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(docURL, doc); err != nil {
		return nil, fmt.Errorf("loading %s: %w", path, err)
	}
	m, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s is not an object", path)
	}
	return &Validator{doc: m, compiler: c, schemas: map[string]*jsonschema.Schema{}}, nil
}

// Validate checks one response. Paths the document does not describe are only checked to
// answer errors with the Error schema.
func (v *Validator) Validate(method, path string, status int, contentType string, body []byte) error {
	tmpl, ok := v.match(path)
	if !ok {
		if status >= 400 {
			return v.check("#/components/schemas/Error", body, method, path, status)
		}
		return nil
	}
	op, ok := v.child(v.doc, "paths", tmpl, strings.ToLower(method))
	if !ok {
		return fmt.Errorf("openapi: %s %s is not documented", method, tmpl)
	}
	responses, _ := op["responses"].(map[string]any)
	code := strconv.Itoa(status)
	for _, key := range []string{code, code[:1] + "XX", "default"} {
		resp, ok := responses[key].(map[string]any)
		if !ok {
			continue
		}
		if len(body) == 0 {
			return nil
		}
		if strings.HasPrefix(contentType, ndjson) {
			return v.checkLines(resp, tmpl, key, body, method, path, status)
		}
		if !strings.HasPrefix(contentType, "application/json") {
			return fmt.Errorf("openapi: %s %s answered %d with Content-Type %q", method, path, status, contentType)
		}
		if _, ok := v.child(resp, "content", "application/json", "schema"); !ok {
			return fmt.Errorf("openapi: %s %s response %s has no JSON schema", method, tmpl, key)
		}
		ptr := "#/paths/" + escape(tmpl) + "/" + strings.ToLower(method) + "/responses/" + key + "/content/application~1json/schema"
		return v.check(ptr, body, method, path, status)
	}
	return fmt.Errorf("openapi: %s %s: status %d is not documented", method, tmpl, status)
}

// ndjson is the media type of a stream of JSON values, one a line.
const ndjson = "application/x-ndjson"

// checkLines checks each line of an NDJSON answer against the schema its response
// documents for application/x-ndjson (the schema of one line).
func (v *Validator) checkLines(resp map[string]any, tmpl, key string, body []byte, method, path string, status int) error {
	if _, ok := v.child(resp, "content", ndjson, "schema"); !ok {
		return fmt.Errorf("openapi: %s %s response %s has no %s schema", method, tmpl, key, ndjson)
	}
	ptr := "#/paths/" + escape(tmpl) + "/" + strings.ToLower(method) + "/responses/" + key + "/content/application~1x-ndjson/schema"
	for _, line := range bytes.Split(bytes.TrimSuffix(body, []byte("\n")), []byte("\n")) {
		if err := v.check(ptr, line, method, path, status); err != nil {
			return err
		}
	}
	return nil
}

func (v *Validator) check(ptr string, body []byte, method, path string, status int) error {
	s, err := v.schema(ptr)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("openapi: %s %s answered %d with a body that is not JSON: %q", method, path, status, body)
	}
	if err := s.Validate(inst); err != nil {
		return fmt.Errorf("openapi: %s %s answered %d with %s: %w", method, path, status, body, err)
	}
	return nil
}

func (v *Validator) schema(ptr string) (*jsonschema.Schema, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if s, ok := v.schemas[ptr]; ok {
		return s, nil
	}
	s, err := v.compiler.Compile(docURL + ptr)
	if err != nil {
		return nil, fmt.Errorf("openapi: compiling %s: %w", ptr, err)
	}
	v.schemas[ptr] = s
	return s, nil
}

// match finds the path template matching a concrete path (query string ignored). As
// OpenAPI says, a concrete path wins over a templated one (/records/partial over
// /records/{objectID}, /rules/history over /rules/{ruleId}): of the templates that
// match, the one with the most literal segments.
func (v *Validator) match(path string) (string, bool) {
	path, _, _ = strings.Cut(path, "?")
	segs := strings.Split(path, "/")
	paths, _ := v.doc["paths"].(map[string]any)
	best, bestLiterals := "", -1
	for tmpl := range paths {
		if n, ok := literalMatch(strings.Split(tmpl, "/"), segs); ok && n > bestLiterals {
			best, bestLiterals = tmpl, n
		}
	}
	return best, bestLiterals >= 0
}

// literalMatch reports whether the template's segments t match segs, and how many of
// them are literal.
func literalMatch(t, segs []string) (int, bool) {
	if len(t) != len(segs) {
		return 0, false
	}
	literals := 0
	for i := range t {
		if strings.HasPrefix(t[i], "{") && segs[i] != "" {
			continue
		}
		if t[i] != segs[i] {
			return 0, false
		}
		literals++
	}
	return literals, true
}

func (v *Validator) child(m map[string]any, keys ...string) (map[string]any, bool) {
	for _, k := range keys {
		next, ok := m[k].(map[string]any)
		if !ok {
			return nil, false
		}
		m = next
	}
	return m, true
}

func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// Response validates an *http.Response whose body was already read into body.
func (v *Validator) Response(req *http.Request, resp *http.Response, body []byte) error {
	return v.Validate(req.Method, req.URL.EscapedPath(), resp.StatusCode, resp.Header.Get("Content-Type"), body)
}
