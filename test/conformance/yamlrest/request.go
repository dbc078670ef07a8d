package yamlrest

import (
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// Request is an HTTP request built from an API call in a `do` step.
type Request struct {
	API     string
	Method  string
	Path    string
	Query   url.Values
	Body    []byte
	Header  http.Header
	Ignore  []int
	hasBody bool
}

// String renders the request for failure messages.
func (r *Request) String() string {
	u := r.Path
	if q := r.Query.Encode(); q != "" {
		u += "?" + q
	}
	s := r.Method + " " + u
	if r.hasBody {
		body := string(r.Body)
		if len(body) > 2000 {
			body = body[:2000] + "...(truncated)"
		}
		s += "\n" + body
	}
	return s
}

// ParamError is the client-side error `catch: param` expects: an unknown
// parameter, a missing part or a missing body.
type ParamError struct{ Msg string }

func (e *ParamError) Error() string { return e.Msg }

// Build turns one API call (name plus its arguments, already stash-resolved)
// into an HTTP request, validating the arguments against the spec as ES's
// runner does.
func (s *Specs) Build(name string, args map[string]any) (*Request, error) {
	api, ok := s.APIs[name]
	if !ok {
		return nil, fmt.Errorf("no API spec for %q", name)
	}
	r := &Request{API: name, Query: url.Values{}, Header: http.Header{}}
	if err := r.setBody(api, args); err != nil {
		return nil, err
	}
	p, ok := api.bestPath(args)
	if !ok {
		return nil, &ParamError{fmt.Sprintf("no path of [%s] matches the given parts %v", name, argNames(args))}
	}
	r.Path = fillPath(p.Path, args)
	r.Method = p.method(r.hasBody)
	for _, k := range sortedKeys(args) {
		if err := r.addArg(s, api, p, k, args[k]); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func (r *Request) addArg(s *Specs, api *API, p APIPath, k string, v any) error {
	switch {
	case k == "body":
		return nil
	case k == "ignore":
		return r.setIgnore(v)
	case contains(p.Parts, k) || (api.isPart(k) && joinList(v) == ""):
		return nil
	case s.Takes(api, k):
		r.Query.Set(k, joinList(v))
		return nil
	case api.isPart(k):
		// A part of another path of this API: ES's runner ignores it too.
		return nil
	}
	return &ParamError{fmt.Sprintf("path/param [%s] not supported by [%s] api", k, api.Name)}
}

func (r *Request) setIgnore(v any) error {
	list, ok := v.([]any)
	if !ok {
		list = []any{v}
	}
	for _, e := range list {
		n, err := strconv.Atoi(scalarString(e))
		if err != nil {
			return fmt.Errorf("ignore: %v is not a status code", e)
		}
		r.Ignore = append(r.Ignore, n)
	}
	return nil
}

func (r *Request) setBody(api *API, args map[string]any) error {
	body, has := args["body"]
	if !has {
		if api.BodyRequired {
			return &ParamError{fmt.Sprintf("body is required by [%s] api", api.Name)}
		}
		return nil
	}
	if !api.BodyAllowed {
		return &ParamError{fmt.Sprintf("body is not supported by [%s] api", api.Name)}
	}
	r.hasBody = true
	r.Header.Set("Content-Type", api.ContentType)
	switch b := body.(type) {
	case string:
		r.Body = []byte(b)
	case []any:
		r.Body = ndjson(b)
		if !api.Bulk {
			r.Body = []byte(toJSON(b))
		}
	default:
		r.Body = []byte(toJSON(b))
	}
	return nil
}

// ndjson joins lines (strings as they are, anything else as JSON) with a
// trailing newline, as the bulk API requires.
func ndjson(lines []any) []byte {
	var sb strings.Builder
	for _, l := range lines {
		if s, ok := l.(string); ok {
			sb.WriteString(s)
		} else {
			sb.WriteString(toJSON(l))
		}
		sb.WriteByte('\n')
	}
	return []byte(sb.String())
}

func fillPath(tmpl string, args map[string]any) string {
	return partRE.ReplaceAllStringFunc(tmpl, func(m string) string {
		return escapePart(joinList(args[m[1:len(m)-1]]))
	})
}

// escapePart percent-encodes a path part but keeps the separators ES reads
// unencoded in practice (list commas, wildcards).
func escapePart(s string) string {
	e := url.PathEscape(s)
	return strings.NewReplacer("%2C", ",", "%2A", "*").Replace(e)
}

func argNames(args map[string]any) []string {
	names := sortedKeys(args)
	sort.Strings(names)
	return names
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
