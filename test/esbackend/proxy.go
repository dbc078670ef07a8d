package esbackend

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"sync"
)

// Proxy forwards TCP connections from a fixed loopback address to a backend. Stop closes
// the listener and every open connection, so clients see the backend as down; Start
// listens again on the same address.
type Proxy struct {
	target string
	addr   string

	mu       sync.Mutex
	listener net.Listener
	conns    map[net.Conn]struct{}
}

// NewProxy starts a proxy in front of the backend at rawURL.
func NewProxy(rawURL string) (*Proxy, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("parsing %s: %w", rawURL, err)
	}
	p := &Proxy{target: u.Host, addr: "127.0.0.1:0", conns: map[net.Conn]struct{}{}}
	if err := p.Start(); err != nil {
		return nil, err
	}
	return p, nil
}

// URL is the proxy's address as an http URL.
func (p *Proxy) URL() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return "http://" + p.addr
}

// Start listens (again) on the proxy's address.
func (p *Proxy) Start() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.listener != nil {
		return nil
	}
	l, err := net.Listen("tcp", p.addr)
	if err != nil {
		return fmt.Errorf("proxy listening on %s: %w", p.addr, err)
	}
	p.listener, p.addr = l, l.Addr().String()
	go p.accept(l)
	return nil
}

// Stop closes the listener and cuts every connection.
func (p *Proxy) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.listener != nil {
		_ = p.listener.Close()
		p.listener = nil
	}
	for c := range p.conns {
		_ = c.Close()
		delete(p.conns, c)
	}
}

func (p *Proxy) accept(l net.Listener) {
	for {
		in, err := l.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue
		}
		go p.forward(in)
	}
}

func (p *Proxy) forward(in net.Conn) {
	out, err := net.Dial("tcp", p.target)
	if err != nil {
		_ = in.Close()
		return
	}
	if !p.track(in, out) {
		return
	}
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		done <- struct{}{}
	}
	go pipe(out, in)
	go pipe(in, out)
	<-done
	p.untrack(in, out)
}

func (p *Proxy) track(conns ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.listener == nil {
		for _, c := range conns {
			_ = c.Close()
		}
		return false
	}
	for _, c := range conns {
		p.conns[c] = struct{}{}
	}
	return true
}

func (p *Proxy) untrack(conns ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range conns {
		_ = c.Close()
		delete(p.conns, c)
	}
}
