// Package httpapi serves the Elasticsearch REST subset over net/http: routing, parameter
// validation, ES's error shape, and the X-Elastic-Product header on every response.
package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/pit"
	"github.com/aislehq/aisle/internal/engine/store"
)

// MaxBodyBytes matches ES's default http.max_content_length (100mb).
const MaxBodyBytes = 100 << 20

// API is the HTTP handler for one store.
type API struct {
	Store       *store.Store
	ClusterUUID string
	// PITs holds the open points in time; nil makes one of pit.DefaultMaxOpen on first use.
	PITs    *pit.Registry
	pitOnce sync.Once
}

// req carries one request's parsed parts to a handler.
type req struct {
	w      http.ResponseWriter
	r      *http.Request
	parts  []string
	params url.Values
	body   []byte
	head   bool
	// cleanup runs after the handler, e.g. to unpin indices.
	cleanup []func()
}

func (q *req) param(name string) string { return q.params.Get(name) }

// ServeHTTP routes a request; any panic becomes an ES-shaped 500 instead of a dropped
// connection.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Elastic-Product", "Elasticsearch")
	defer func() {
		if p := recover(); p != nil {
			writeError(w, r.Method == http.MethodHead, eserr.New(500, "exception", "internal error: %v", p).With("stack", string(debug.Stack())))
		}
	}()
	q := &req{w: w, r: r, params: r.URL.Query(), head: r.Method == http.MethodHead}
	for _, p := range strings.Split(strings.Trim(r.URL.Path, "/"), "/") {
		if p != "" {
			if u, err := url.PathUnescape(p); err == nil {
				p = u
			}
			q.parts = append(q.parts, p)
		}
	}
	if r.Body != nil && r.Method != http.MethodHead && r.Method != http.MethodGet || r.ContentLength > 0 {
		body, err := readBody(r)
		if err != nil {
			writeError(w, q.head, eserr.New(400, "parse_exception", "failed to read request body: %s", err.Error()))
			return
		}
		if len(body) > MaxBodyBytes {
			writeError(w, q.head, eserr.New(413, "content_too_long_exception", "Request content is too large (max %d bytes)", MaxBodyBytes))
			return
		}
		q.body = body
	}
	h, allowed := a.route(q)
	if h == nil {
		writeError(w, q.head, eserr.New(405, "method_not_allowed", "Incorrect HTTP method for uri [%s] and method [%s], allowed: [%s]", r.URL.RequestURI(), r.Method, allowed))
		return
	}
	if err := checkParams(q, h.params); err != nil {
		writeError(w, q.head, err)
		return
	}
	defer func() {
		for _, f := range q.cleanup {
			f()
		}
	}()
	status, body, err := h.fn(q)
	if err != nil {
		writeError(w, q.head, eserr.As(err))
		return
	}
	writeJSON(w, q.head, status, body)
}

func writeJSON(w http.ResponseWriter, head bool, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	if head {
		w.Header().Set("Content-Length", "0")
		w.WriteHeader(status)
		return
	}
	b, err := json.Marshal(body)
	if err != nil {
		b, _ = json.Marshal(eserr.New(500, "exception", "failed to render response: %s", err.Error()))
		status = 500
	}
	w.Header().Set("Content-Length", fmt.Sprint(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func writeError(w http.ResponseWriter, head bool, e *eserr.Error) {
	writeJSON(w, head, e.Status, e)
}

// handler is one endpoint: its function and accepted URL parameters.
type handler struct {
	fn     func(q *req) (int, any, error)
	params []string
}

func h(fn func(q *req) (int, any, error), params ...string) *handler {
	return &handler{fn: fn, params: params}
}

func boolParam(q *req, name string, def bool) (bool, error) {
	v, ok := q.params[name]
	if !ok {
		return def, nil
	}
	switch v[0] {
	case "", "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, eserr.IllegalArgument("Failed to parse value [%s] as only [true] or [false] are allowed.", v[0])
}

func (a *API) resolveOpts(q *req, allowNoIndices bool) (store.ResolveOpts, error) {
	iu, err := boolParam(q, "ignore_unavailable", false)
	if err != nil {
		return store.ResolveOpts{}, err
	}
	an, err := boolParam(q, "allow_no_indices", allowNoIndices)
	if err != nil {
		return store.ResolveOpts{}, err
	}
	return store.ResolveOpts{IgnoreUnavailable: iu, AllowNoIndices: an}, nil
}

// readBody reads up to MaxBodyBytes+1 bytes of the request body, into one buffer when the
// client announced the length (every bulk does): growing a buffer to a megabyte copied it
// a dozen times.
func readBody(r *http.Request) ([]byte, error) {
	limited := io.LimitReader(r.Body, MaxBodyBytes+1)
	if r.ContentLength <= 0 || r.ContentLength > MaxBodyBytes {
		return io.ReadAll(limited)
	}
	var buf bytes.Buffer
	buf.Grow(int(r.ContentLength) + bytes.MinRead)
	_, err := buf.ReadFrom(limited)
	return buf.Bytes(), err
}
