package apiserver

import (
	"errors"
	"io"
	"net"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
)

// fasthttp answers a request whose body it will not read (over its limit, or from a key
// its endpoint refuses: see bodyLimitFor) once it has read the headers, then closes the
// connection while the client may still be sending the body. A socket closed with unread
// data answers with a reset, which can reach the client before it has read the answer: a
// public search with a 5 MB body got "connection reset" instead of its 413. As Go's
// net/http does, such a connection is drained before it closes: the server shuts its
// sending side (the client sees the answer end), then reads and discards what arrives,
// up to drainLimit bytes within drainTimeout, or until the client closes.
//
// The bound: a client that sends a refused body of up to drainLimit finishes sending and
// reads its answer; one that sends more has had the answer before it since the headers,
// and is cut. Discarding costs no memory, only the bytes read, and drainTimeout bounds
// how long a client that sends slowly, or nothing, holds the connection after its
// answer.
const (
	drainLimit   = 32 << 20
	drainTimeout = 10 * time.Second
)

// drainListener hands out connections that can be drained before they close.
type drainListener struct{ net.Listener }

func (l drainListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &drainConn{Conn: c}, nil
}

// drainConn is a connection drained when it closes, once marked.
type drainConn struct {
	net.Conn
	drain atomic.Bool
}

// drainRefused wraps the handler of the requests fasthttp could not read (next): the
// connection of a body refused unread is drained before it closes.
func drainRefused(next func(*fasthttp.RequestCtx, error)) func(*fasthttp.RequestCtx, error) {
	return func(ctx *fasthttp.RequestCtx, err error) {
		if errors.Is(err, fasthttp.ErrBodyTooLarge) {
			drainOnClose(ctx.Conn())
		}
		next(ctx, err)
	}
}

// drainOnClose marks conn to be drained when it closes; a connection the server did not
// accept itself (app.Test's) closes as it would.
func drainOnClose(conn net.Conn) {
	if c, ok := conn.(*drainConn); ok {
		c.drain.Store(true)
	}
}

func (c *drainConn) Close() error {
	if c.drain.Load() {
		if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
			_ = cw.CloseWrite()
		}
		_ = c.SetReadDeadline(time.Now().Add(drainTimeout))
		_, _ = io.CopyN(io.Discard, c.Conn, drainLimit)
	}
	return c.Conn.Close()
}
