package esbackend

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
)

// Gate is an HTTP proxy in front of a backend that can stop a process at a known point
// of its work: a spec lets a number of matching requests through, holds the next ones
// until it has done what it must do there (kill the process that sent them), then
// releases them. The process only sees a backend slow to answer; production code knows
// nothing of the gate. A spec that holds instead of racing a clock does not depend on
// the machine's speed.
type Gate struct {
	url string
	srv *http.Server
	rp  *httputil.ReverseProxy

	mu    sync.Mutex
	match func(*http.Request) bool // the requests counted; nil for none
	left  int                      // matching requests still let through before holding
	held  chan struct{}            // closed when the gate holds its first request
	open  chan struct{}            // closed by Release
}

// NewGate starts a gate in front of the backend at backendURL; Close stops it.
func NewGate(backendURL string) (*Gate, error) {
	u, err := url.Parse(backendURL)
	if err != nil {
		return nil, fmt.Errorf("parsing %s: %w", backendURL, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("gate listening: %w", err)
	}
	g := &Gate{url: "http://" + ln.Addr().String(), rp: httputil.NewSingleHostReverseProxy(u)}
	g.srv = &http.Server{Handler: g}
	go func() { _ = g.srv.Serve(ln) }()
	return g, nil
}

// URL is the gate's address as an http URL.
func (g *Gate) URL() string { return g.url }

// Close releases what the gate holds and stops it.
func (g *Gate) Close() error {
	g.Release()
	if err := g.srv.Close(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// HoldAfter lets n requests that match through, then holds every further one until
// Release; the channel it returns closes once a request is held.
func (g *Gate) HoldAfter(n int, match func(*http.Request) bool) <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.match != nil {
		close(g.open)
	}
	g.match, g.left = match, n
	g.held, g.open = make(chan struct{}), make(chan struct{})
	return g.held
}

// Release lets the held requests through, and every request from now on.
func (g *Gate) Release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.match != nil {
		g.match = nil
		close(g.open)
	}
}

func (g *Gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if open := g.admit(r); open != nil {
		// Reading the body first lets the server notice when the process holding this
		// request dies: the request then never reaches the backend.
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		select {
		case <-open:
		case <-r.Context().Done():
			return
		}
	}
	g.rp.ServeHTTP(w, r)
}

// admit counts a matching request; for one to hold, it returns the channel Release
// closes, else nil.
func (g *Gate) admit(r *http.Request) <-chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.match == nil || !g.match(r) {
		return nil
	}
	if g.left > 0 {
		g.left--
		return nil
	}
	select {
	case <-g.held:
	default:
		close(g.held)
	}
	return g.open
}
