// Package esspec holds a request to Elasticsearch's REST API specification (the JSON files
// of ../shared/es-conformance: api/ and candidates/api/): the path and method exist, each
// query parameter is one the API takes and fits its type, and the body is JSON the API
// takes. Record puts a checking reverse proxy in front of a backend, so that suites can fail
// when the API server or the operator sends a request Elasticsearch would refuse, although
// the embedded engine they run against accepted it.
package esspec

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"sync"

	"github.com/aislehq/aisle/test/conformance"
	"github.com/aislehq/aisle/test/conformance/yamlrest"
)

// Spec is the REST API specification with a router over its path templates.
type Spec struct {
	specs  *yamlrest.Specs
	routes []*route
}

// Request is what is checked of one HTTP request: Path is the URL's path as sent (escaped).
type Request struct {
	Method string
	Path   string
	Query  url.Values
	Body   []byte
}

func (r Request) String() string {
	s := r.Method + " " + r.Path
	if q := r.Query.Encode(); q != "" {
		s += "?" + q
	}
	return s
}

// Load reads api/*.json and candidates/api/*.json under dir; an API in both is read from
// api/.
func Load(dir string) (*Spec, error) {
	specs, err := yamlrest.LoadSpecs(filepath.Join(dir, "api"))
	if err != nil {
		return nil, err
	}
	candidates, err := yamlrest.LoadSpecs(filepath.Join(dir, "candidates", "api"))
	if err != nil {
		return nil, err
	}
	for name, api := range candidates.APIs {
		if _, ok := specs.APIs[name]; !ok {
			specs.APIs[name] = api
		}
	}
	return &Spec{specs: specs, routes: buildRoutes(specs)}, nil
}

var (
	defaultOnce sync.Once
	defaultSpec *Spec
	defaultErr  error
)

// Default loads the specification from the conformance suite's folder (conformance.Dir),
// once per process.
func Default() (*Spec, error) {
	defaultOnce.Do(func() {
		dir, err := conformance.Dir()
		if err != nil {
			defaultErr = err
			return
		}
		defaultSpec, defaultErr = Load(dir)
	})
	return defaultSpec, defaultErr
}

// Check holds a whole request to the specification: nil when Elasticsearch would take it.
func (s *Spec) Check(r Request) error {
	api, err := s.Match(r.Method, r.Path)
	if err != nil {
		return err
	}
	if err := s.CheckParams(api, r.Query); err != nil {
		return err
	}
	return CheckBody(api, r.Body)
}

// violation names the refused request's API and says why.
func violation(api *yamlrest.API, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if api == nil {
		return fmt.Errorf("%s", msg)
	}
	return fmt.Errorf("[%s] %s", api.Name, msg)
}

func splitPath(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}
