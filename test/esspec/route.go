package esspec

import (
	"net/url"
	"sort"
	"strings"

	"github.com/aislehq/aisle/test/conformance/yamlrest"
)

// route is one path shape (its parts unnamed, as in ES's path trie, where /{index}/_alias
// and /{name}/_alias are one node) and the API serving each method on it.
type route struct {
	segments []string // a literal, or "" for a part such as {index}
	apis     map[string]*yamlrest.API
}

func buildRoutes(specs *yamlrest.Specs) []*route {
	byShape := map[string]*route{}
	var out []*route
	for _, name := range sortedAPINames(specs) {
		api := specs.APIs[name]
		for _, p := range api.Paths {
			segs := shape(p.Path)
			key := "/" + strings.Join(segs, "/")
			r, ok := byShape[key]
			if !ok {
				r = &route{segments: segs, apis: map[string]*yamlrest.API{}}
				byShape[key] = r
				out = append(out, r)
			}
			for _, m := range p.Methods {
				if _, taken := r.apis[m]; !taken {
					r.apis[m] = api
				}
			}
		}
	}
	return out
}

func sortedAPINames(specs *yamlrest.Specs) []string {
	names := make([]string, 0, len(specs.APIs))
	for n := range specs.APIs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func shape(template string) []string {
	segs := splitPath(template)
	for i, s := range segs {
		if strings.HasPrefix(s, "{") {
			segs[i] = ""
		}
	}
	return segs
}

// Match finds the API serving method on path: of the templates that match, the most
// specific one (a literal segment beats a part at the first place they differ, as in ES's
// router), then the API of that template that takes the method.
func (s *Spec) Match(method, path string) (*yamlrest.API, error) {
	segs := splitPath(path)
	for i, seg := range segs {
		if u, err := url.PathUnescape(seg); err == nil {
			segs[i] = u
		}
	}
	var best *route
	for _, r := range s.routes {
		if r.matches(segs) && (best == nil || r.moreSpecific(best)) {
			best = r
		}
	}
	if best == nil {
		return nil, violation(nil, "no API of the specification has the path %s", path)
	}
	api, ok := best.apis[method]
	if !ok {
		return nil, violation(nil, "no API takes method %s on %s (allowed: %s)", method, path, best.methods())
	}
	return api, nil
}

func (r *route) matches(segs []string) bool {
	if len(segs) != len(r.segments) {
		return false
	}
	for i, want := range r.segments {
		if segs[i] == "" || (want != "" && want != segs[i]) {
			return false
		}
	}
	return true
}

func (r *route) moreSpecific(other *route) bool {
	for i, s := range r.segments {
		o := other.segments[i]
		if (s == "") != (o == "") {
			return s != ""
		}
	}
	return false
}

func (r *route) methods() string {
	ms := make([]string, 0, len(r.apis))
	for m := range r.apis {
		ms = append(ms, m)
	}
	sort.Strings(ms)
	return strings.Join(ms, ", ")
}
