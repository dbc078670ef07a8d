package yamlrest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

// execution is the state of one test section run: stash and last response.
type execution struct {
	r       *Runner
	file    string
	section string
	stash   *Stash
	req     *Request
	resp    *Response
	skipped []string
}

func (x *execution) runSection(ctx context.Context, sec *Section) error {
	if sec == nil {
		return nil
	}
	x.section = sec.Name
	for _, s := range sec.Steps {
		if s.Op == "skip" || s.Op == "requires" {
			continue // evaluated before the test started
		}
		if x.r.Skips != nil {
			if why := x.r.Skips.Skip(x.file, sec.Name, &s); why != "" {
				x.skipped = append(x.skipped, fmt.Sprintf("[%s] %s: %s", sec.Name, s, why))
				continue
			}
		}
		if err := x.step(ctx, s); err != nil {
			return &StepError{Section: sec.Name, Step: s, Request: x.req, Response: x.resp, Err: err}
		}
	}
	return nil
}

func (x *execution) step(ctx context.Context, s Step) error {
	if s.Op == "do" {
		return x.do(ctx, s.Arg)
	}
	if s.Op == "set" {
		return x.set(s.Arg)
	}
	a, ok := assertions[s.Op]
	if !ok {
		return fmt.Errorf("unsupported operator %q", s.Op)
	}
	return x.eachPair(s, a)
}

// doArgs is a `do` step split into its runner options and the API call.
type doArgs struct {
	catch         string
	headers       map[string]any
	warnings      []string
	warningsRE    []string
	allowed       []string
	allowedRE     []string
	api           string
	params        map[string]any
	hasNodeSelect bool
}

func parseDo(arg any) (*doArgs, error) {
	m, ok := arg.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("do needs a mapping")
	}
	d := &doArgs{}
	for _, k := range sortedKeys(m) {
		v := m[k]
		switch k {
		case "catch":
			d.catch = scalarString(v)
		case "headers":
			d.headers, _ = v.(map[string]any)
		case "warnings":
			d.warnings = stringList(v)
		case "warnings_regex":
			d.warningsRE = stringList(v)
		case "allowed_warnings":
			d.allowed = stringList(v)
		case "allowed_warnings_regex":
			d.allowedRE = stringList(v)
		case "node_selector":
			d.hasNodeSelect = true
		default:
			if d.api != "" {
				return nil, fmt.Errorf("do calls two APIs: %s and %s", d.api, k)
			}
			d.api = k
			d.params, _ = v.(map[string]any)
			if d.params == nil {
				d.params = map[string]any{}
			}
		}
	}
	if d.api == "" {
		return nil, fmt.Errorf("do names no API")
	}
	return d, nil
}

func (x *execution) do(ctx context.Context, arg any) error {
	resolved, err := x.stash.Resolve(arg)
	if err != nil {
		return err
	}
	d, err := parseDo(resolved)
	if err != nil {
		return err
	}
	if d.hasNodeSelect {
		// Tests using it declare the node_selector feature, which this
		// runner does not claim, so reaching here is a test-file error.
		return fmt.Errorf("node_selector is not supported")
	}
	x.req, x.resp = nil, nil
	req, err := x.r.Specs.Build(d.api, d.params)
	var perr *ParamError
	if errors.As(err, &perr) {
		if d.catch == "param" {
			return nil
		}
		return fmt.Errorf("client-side parameter error: %s", perr.Msg)
	}
	if err != nil {
		return err
	}
	for k, v := range d.headers {
		req.Header.Set(k, scalarString(v))
	}
	x.req = req
	if d.catch == "param" {
		return fmt.Errorf("expected a client-side parameter error (catch: param), but the request was valid")
	}
	if x.resp, err = send(ctx, x.r.Client, x.r.BaseURL, req); err != nil {
		return err
	}
	x.stash.Set("body", string(x.resp.Raw))
	if err := checkStatus(d.catch, req, x.resp); err != nil {
		return err
	}
	return checkWarnings(d, x.resp.Warnings())
}

// catchStatus maps named `catch` values to HTTP status codes.
var catchStatus = map[string]int{
	"bad_request":     400,
	"unauthorized":    401,
	"forbidden":       403,
	"missing":         404,
	"request_timeout": 408,
	"conflict":        409,
	"unavailable":     503,
}

func checkStatus(catch string, req *Request, resp *Response) error {
	st := resp.Status
	if catch == "" {
		if st < 400 || (req.Method == http.MethodHead && st == 404) || containsInt(req.Ignore, st) {
			return nil
		}
		return fmt.Errorf("unexpected error status %d", st)
	}
	if code, ok := catchStatus[catch]; ok {
		if st != code {
			return fmt.Errorf("catch %s: expected status %d, got %d", catch, code, st)
		}
		return nil
	}
	if catch == "request" {
		if st < 400 || (st >= 400 && isNamedStatus(st)) {
			return fmt.Errorf("catch request: expected an unnamed 4xx/5xx status, got %d", st)
		}
		return nil
	}
	pattern, ok := regexLiteral(catch)
	if !ok {
		return fmt.Errorf("unknown catch value %q", catch)
	}
	return checkCatchRegex(pattern, resp)
}

// checkCatchRegex follows ES's runner: an error status, an `error` field,
// and the regex (no x flag here) found in the error's text.
func checkCatchRegex(pattern string, resp *Response) error {
	if resp.Status < 400 {
		return fmt.Errorf("catch /%s/: expected an error status, got %d", pattern, resp.Status)
	}
	m, _ := resp.Body.(map[string]any)
	e, ok := m["error"]
	if !ok || e == nil {
		return fmt.Errorf("catch /%s/: the error response has no `error` field", pattern)
	}
	text, ok := orderedErrorString(resp.Raw)
	if !ok {
		text = javaString(e)
	}
	ok, err := matchRegex(pattern, false, text)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("catch /%s/: the error (as ES's runner renders it, in the server's key order) does not match: %s", pattern, text)
	}
	return nil
}

func isNamedStatus(st int) bool {
	for _, c := range catchStatus {
		if c == st {
			return true
		}
	}
	return false
}

// checkWarnings: expected warnings must all be present; any other warning
// must be allowed (FORMAT.asciidoc: without `warnings`, none is expected).
func checkWarnings(d *doArgs, got []string) error {
	matched := make([]bool, len(got))
	for _, want := range d.warnings {
		if !markWarning(got, matched, func(g string) bool { return g == want }) {
			return fmt.Errorf("expected warning %q, got %q", want, got)
		}
	}
	for _, want := range d.warningsRE {
		re, err := regexp.Compile(want)
		if err != nil {
			return err
		}
		if !markWarning(got, matched, re.MatchString) {
			return fmt.Errorf("expected warning matching /%s/, got %q", want, got)
		}
	}
	for i, g := range got {
		if !matched[i] && !allowedWarning(d, g) {
			return fmt.Errorf("unexpected warning %q", g)
		}
	}
	return nil
}

func markWarning(got []string, matched []bool, ok func(string) bool) bool {
	found := false
	for i, g := range got {
		if ok(g) {
			matched[i], found = true, true
		}
	}
	return found
}

func allowedWarning(d *doArgs, g string) bool {
	for _, a := range d.allowed {
		if a == g {
			return true
		}
	}
	for _, a := range d.allowedRE {
		if re, err := regexp.Compile(a); err == nil && re.MatchString(g) {
			return true
		}
	}
	return false
}

func containsInt(list []int, n int) bool {
	for _, e := range list {
		if e == n {
			return true
		}
	}
	return false
}

// set stashes values of the last response: {path: name}.
func (x *execution) set(arg any) error {
	m, ok := arg.(map[string]any)
	if !ok {
		return fmt.Errorf("set needs a mapping")
	}
	for path, name := range m {
		v, found, err := x.actual(path, false)
		if err != nil {
			return err
		}
		if !found {
			return fmt.Errorf("set: no value at %q", path)
		}
		x.stash.Set(scalarString(name), v)
	}
	return nil
}

// actual evaluates a path against the last response. `$body` is the whole
// body (its raw text when matched against a regex); `_arbitrary_key_` picks
// any key of a map.
func (x *execution) actual(path string, raw bool) (any, bool, error) {
	if x.resp == nil {
		return nil, false, fmt.Errorf("no response to assert on")
	}
	if path == "$body" {
		if raw {
			return string(x.resp.Raw), true, nil
		}
		return x.resp.Body, true, nil
	}
	if strings.HasSuffix(path, "._arbitrary_key_") || path == "_arbitrary_key_" {
		parent, found, err := x.stash.Eval(x.resp.Body, strings.TrimSuffix(strings.TrimSuffix(path, "_arbitrary_key_"), "."))
		m, ok := parent.(map[string]any)
		if err != nil || !found || !ok || len(m) == 0 {
			return nil, false, err
		}
		return sortedKeys(m)[0], true, nil
	}
	return x.stash.Eval(x.resp.Body, path)
}
