package esspec

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// keptRefusals bounds how many refused requests a Recorder keeps to report; it counts all.
const keptRefusals = 20

// Recorder is a reverse proxy in front of a backend that holds every request passing
// through to the specification as it streams, keeping only a count and the refusals.
type Recorder struct {
	spec  *Spec
	proxy *httputil.ReverseProxy
	srv   *http.Server
	url   string
	log   io.Writer

	count   atomic.Int64
	mu      sync.Mutex
	refused []string
	more    int
}

// Record starts a Recorder on a loopback port in front of backend, with the specification
// of Default. Each refusal is also written to log when it happens.
func Record(backend string, log io.Writer) (*Recorder, error) {
	spec, err := Default()
	if err != nil {
		return nil, err
	}
	return NewRecorder(spec, backend, log)
}

// NewRecorder starts a Recorder in front of backend holding requests to spec.
func NewRecorder(spec *Spec, backend string, log io.Writer) (*Recorder, error) {
	target, err := url.Parse(backend)
	if err != nil {
		return nil, fmt.Errorf("parsing %s: %w", backend, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("recorder listening: %w", err)
	}
	r := &Recorder{spec: spec, url: "http://" + ln.Addr().String(), log: log}
	r.proxy = &httputil.ReverseProxy{
		Rewrite:   func(pr *httputil.ProxyRequest) { pr.SetURL(target); pr.Out.Host = pr.In.Host },
		Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 64, IdleConnTimeout: 90 * time.Second},
		// The backend being away is the client's to see, as a bad gateway.
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, _ error) { w.WriteHeader(http.StatusBadGateway) },
	}
	r.srv = &http.Server{Handler: r, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = r.srv.Serve(ln) }()
	return r, nil
}

// URL is where clients send their requests.
func (r *Recorder) URL() string { return r.url }

// Count is the number of requests recorded so far.
func (r *Recorder) Count() int64 { return r.count.Load() }

// Err lists the requests outside the specification, or is nil.
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.refused) == 0 {
		return nil
	}
	msg := fmt.Sprintf("%d of %d requests to the backend are outside Elasticsearch's REST API specification:\n  %s",
		len(r.refused)+r.more, r.count.Load(), strings.Join(r.refused, "\n  "))
	if r.more > 0 {
		msg += fmt.Sprintf("\n  ... and %d more", r.more)
	}
	return errors.New(msg)
}

// Close stops the Recorder, reports the count to its log and returns Err.
func (r *Recorder) Close() error {
	_ = r.srv.Close()
	r.mu.Lock()
	refused := len(r.refused) + r.more
	r.mu.Unlock()
	fmt.Fprintf(r.log, "esspec: %d requests recorded, %d outside the specification\n", r.count.Load(), refused)
	return r.Err()
}

func (r *Recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.count.Add(1)
	what := Request{Method: req.Method, Path: req.URL.EscapedPath(), Query: req.URL.Query()}
	api, err := r.spec.Match(what.Method, what.Path)
	if err == nil {
		err = r.spec.CheckParams(api, what.Query)
	}
	var body *checkedBody
	if err == nil {
		body = &checkedBody{ReadCloser: req.Body, checker: NewBodyChecker(api), done: req.ContentLength == 0}
		req.Body = body
	}
	r.proxy.ServeHTTP(w, req)
	// A body the proxy could not read to its end (the client or backend went away) has no
	// verdict.
	if body != nil {
		err = body.verdict()
	}
	if err != nil {
		r.refuse(what.String() + ": " + err.Error())
	}
}

func (r *Recorder) refuse(msg string) {
	fmt.Fprintf(r.log, "esspec: outside Elasticsearch's specification: %s\n", msg)
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.refused) < keptRefusals {
		r.refused = append(r.refused, msg)
		return
	}
	r.more++
}

// checkedBody passes a request body through to the backend, feeding the checker. The
// transport may still be sending the body when the answer has come, hence the lock.
type checkedBody struct {
	io.ReadCloser
	mu      sync.Mutex
	checker BodyChecker
	done    bool
}

func (b *checkedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.mu.Lock()
	defer b.mu.Unlock()
	_, _ = b.checker.Write(p[:n])
	if errors.Is(err, io.EOF) {
		b.done = true
	}
	return n, err
}

func (b *checkedBody) verdict() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.done {
		return nil
	}
	return b.checker.Verdict()
}
