package yamlrest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// API is one REST API spec (api/<name>.json), reduced to what building a
// request needs.
type API struct {
	Name         string
	Paths        []APIPath
	Params       map[string]Param
	BodyAllowed  bool
	BodyRequired bool
	// Bulk marks APIs whose body is newline-delimited JSON.
	Bulk        bool
	ContentType string
}

// Param is one query parameter's declared type ("boolean", "number", "time", "enum",
// "list", "string", ...) and, for an enum, its options.
type Param struct {
	Type    string   `json:"type"`
	Options []string `json:"options"`
}

// APIPath is one URL template with the methods it accepts.
type APIPath struct {
	Path    string
	Methods []string
	Parts   []string
}

// Specs holds every API spec of a directory plus the common parameters.
type Specs struct {
	APIs   map[string]*API
	Common map[string]Param
}

// rawSpec covers both spec schemas found in the suite: the current one
// (url.paths is a list of objects, params at top level) and the legacy one
// (top-level methods, url.paths as strings, url.parts and url.params).
type rawSpec struct {
	Methods []string `json:"methods"`
	URL     struct {
		Paths  []json.RawMessage `json:"paths"`
		Parts  map[string]any    `json:"parts"`
		Params map[string]Param  `json:"params"`
	} `json:"url"`
	Params  map[string]Param `json:"params"`
	Body    *rawBody         `json:"body"`
	Headers struct {
		ContentType []string `json:"content_type"`
	} `json:"headers"`
}

type rawBody struct {
	Required  bool   `json:"required"`
	Serialize string `json:"serialize"`
}

var partRE = regexp.MustCompile(`\{([^}]+)\}`)

// LoadSpecs reads every *.json in dir; _common.json supplies the params
// every API accepts.
func LoadSpecs(dir string) (*Specs, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	s := NewSpecs()
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		if err := s.Add(filepath.Base(p), raw); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
	}
	if len(s.APIs) == 0 {
		return nil, fmt.Errorf("no API specs in %s", dir)
	}
	return s, nil
}

// NewSpecs returns an empty spec set.
func NewSpecs() *Specs {
	return &Specs{APIs: map[string]*API{}, Common: map[string]Param{}}
}

// Add parses one spec file's content; file is its base name.
func (s *Specs) Add(file string, raw []byte) error {
	if file == "_common.json" {
		var c struct {
			Params map[string]Param `json:"params"`
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			return err
		}
		for k, p := range c.Params {
			s.Common[k] = p
		}
		return nil
	}
	var m map[string]rawSpec
	if err := json.Unmarshal(raw, &m); err != nil {
		return err
	}
	for name, r := range m {
		api, err := buildAPI(name, r)
		if err != nil {
			return err
		}
		s.APIs[name] = api
	}
	return nil
}

func buildAPI(name string, r rawSpec) (*API, error) {
	api := &API{Name: name, Params: map[string]Param{}, ContentType: "application/json"}
	for k, p := range r.Params {
		api.Params[k] = p
	}
	for k, p := range r.URL.Params {
		api.Params[k] = p
	}
	if r.Body != nil {
		api.BodyAllowed = true
		api.BodyRequired = r.Body.Required
		api.Bulk = r.Body.Serialize == "bulk"
	}
	if len(r.Headers.ContentType) > 0 {
		api.ContentType = r.Headers.ContentType[0]
	}
	for _, p := range r.URL.Paths {
		ap, err := parsePath(p, r.Methods)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		api.Paths = append(api.Paths, ap)
	}
	if len(api.Paths) == 0 {
		return nil, fmt.Errorf("%s: no paths", name)
	}
	return api, nil
}

func parsePath(raw json.RawMessage, legacyMethods []string) (APIPath, error) {
	var ap APIPath
	var legacy string
	if json.Unmarshal(raw, &legacy) == nil {
		ap.Path, ap.Methods = legacy, legacyMethods
	} else {
		var p struct {
			Path    string         `json:"path"`
			Methods []string       `json:"methods"`
			Parts   map[string]any `json:"parts"`
		}
		if err := json.Unmarshal(raw, &p); err != nil {
			return ap, err
		}
		ap.Path, ap.Methods = p.Path, p.Methods
	}
	// Parts are read off the template so both schemas agree.
	for _, m := range partRE.FindAllStringSubmatch(ap.Path, -1) {
		ap.Parts = append(ap.Parts, m[1])
	}
	if len(ap.Methods) == 0 {
		return ap, fmt.Errorf("path %s has no methods", ap.Path)
	}
	return ap, nil
}

// isPart reports whether name is a URL part of any of the API's paths.
func (a *API) isPart(name string) bool {
	for _, p := range a.Paths {
		for _, q := range p.Parts {
			if q == name {
				return true
			}
		}
	}
	return false
}

// bestPath picks, like ES's runner, the path with the most parts among
// those whose parts are all given.
func (a *API) bestPath(given map[string]any) (APIPath, bool) {
	best, found := APIPath{}, false
	for _, p := range a.Paths {
		ok := true
		for _, part := range p.Parts {
			// An empty value (index: []) counts as not given, so
			// `indices.refresh: {index: []}` goes to /_refresh.
			if v, has := given[part]; !has || joinList(v) == "" {
				ok = false
				break
			}
		}
		if ok && (!found || len(p.Parts) > len(best.Parts)) {
			best, found = p, true
		}
	}
	return best, found
}

// method prefers the spec's order, except that a body goes with POST when
// the spec offers both GET and POST (the way clients send search bodies).
func (p APIPath) method(hasBody bool) string {
	if hasBody && p.Methods[0] == "GET" {
		for _, m := range p.Methods {
			if m == "POST" {
				return m
			}
		}
	}
	return p.Methods[0]
}

func joinList(v any) string {
	if l, ok := v.([]any); ok {
		parts := make([]string, len(l))
		for i, e := range l {
			parts[i] = scalarString(e)
		}
		return strings.Join(parts, ",")
	}
	return scalarString(v)
}

// Takes reports whether api takes the query parameter name, its own or a common one.
func (s *Specs) Takes(api *API, name string) bool {
	_, own := api.Params[name]
	_, common := s.Common[name]
	return own || common
}
