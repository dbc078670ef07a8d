package browser

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// seen is a request that reached the proxy, and how it was answered.
type seen struct {
	Method      string
	Path        string
	ContentType string
	Events      []map[string]any
	Bytes       int // of the body
	Status      int
	Accepted    int // the server's count of events taken, from its answer
	At          time.Time
}

// proxy stands between Chromium and the API server: it records every request, and
// answers the next event posts with the statuses queued in faults (429 with Retry-After: 2,
// or 503) the way the server does, CORS headers included; the rest goes to the server.
type proxy struct {
	URL    string
	mu     sync.Mutex
	seen   []seen
	faults []int
	rp     *httputil.ReverseProxy
}

func startProxy(upstream string, faults ...int) *proxy {
	u, err := url.Parse(upstream)
	Expect(err).NotTo(HaveOccurred())
	p := &proxy{faults: faults, rp: httputil.NewSingleHostReverseProxy(u)}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	srv := &http.Server{Handler: p}
	go func() { _ = srv.Serve(ln) }()
	DeferCleanup(srv.Close)
	p.URL = "http://" + ln.Addr().String()
	return p
}

func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s := seen{Method: r.Method, Path: r.URL.Path, ContentType: r.Header.Get("Content-Type"), Bytes: len(body), At: time.Now()}
	var batch struct {
		Events []map[string]any `json:"events"`
	}
	if json.Unmarshal(body, &batch) == nil {
		s.Events = batch.Events
	}
	isEvents := r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/events")
	if fault := p.nextFault(isEvents); fault != 0 {
		w.Header().Set("Access-Control-Allow-Origin", r.Header.Get("Origin"))
		w.Header().Set("Access-Control-Expose-Headers", "Retry-After")
		if fault == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "2")
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(fault)
		_, _ = w.Write([]byte(`{"error": "answered by the test proxy"}`))
		s.Status = fault
		p.record(s)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
	p.rp.ServeHTTP(sw, r)
	s.Status = sw.status
	var answer struct{ Accepted int }
	if json.Unmarshal(sw.body.Bytes(), &answer) == nil {
		s.Accepted = answer.Accepted
	}
	p.record(s)
}

func (p *proxy) nextFault(isEvents bool) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !isEvents || len(p.faults) == 0 {
		return 0
	}
	f := p.faults[0]
	p.faults = p.faults[1:]
	return f
}

func (p *proxy) record(s seen) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seen = append(p.seen, s)
}

// requests returns the requests seen so far with the given method to a path ending in
// suffix.
func (p *proxy) requests(method, suffix string) []seen {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []seen
	for _, s := range p.seen {
		if s.Method == method && strings.HasSuffix(s.Path, suffix) {
			out = append(out, s)
		}
	}
	return out
}

// sentViews returns the objectIDs of the view events posted, in order.
func (p *proxy) sentViews() []string {
	return p.views(func(seen) bool { return true })
}

// beaconViews returns the objectIDs of the view events posted by sendBeacon, which, given a
// string, sends it as text/plain;charset=UTF-8 where the client's fetch says text/plain.
func (p *proxy) beaconViews() []string {
	return p.views(func(s seen) bool { return s.ContentType == "text/plain;charset=UTF-8" })
}

func (p *proxy) views(match func(seen) bool) []string {
	var ids []string
	for _, s := range p.requests(http.MethodPost, "/events") {
		if !match(s) {
			continue
		}
		for _, e := range s.Events {
			if e["type"] == "view" {
				ids = append(ids, e["objectID"].(string))
			}
		}
	}
	return ids
}

// statusWriter keeps the status and the body of an answer as it passes.
type statusWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.body.Write(b)
	return w.ResponseWriter.Write(b)
}
