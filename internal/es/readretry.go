package es

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"path"
	"strings"
)

// cutOffRetries is how many times a read whose answer was cut off is sent again. The
// client's transport retries a request that got no answer, but not one whose answer
// stopped before its last byte (the connection closed after the headers came), which was
// seen through a proxy between client and backend. A read changes nothing, so sending
// it again is safe; a write is never sent again here (it may have been applied).
const cutOffRetries = 2

// readOnlyPosts are the POST endpoints that only read (their body is the query).
var readOnlyPosts = map[string]bool{"_search": true, "_count": true, "_mget": true, "_msearch": true}

// readRetry is the client's HTTP transport: it reads the answer of an idempotent read
// whole, and sends the read again when its answer was cut off.
type readRetry struct {
	next http.RoundTripper
}

func (t readRetry) RoundTrip(req *http.Request) (*http.Response, error) {
	if !idempotentRead(req) {
		return t.next.RoundTrip(req)
	}
	for attempt := 0; ; attempt++ {
		res, err := t.next.RoundTrip(req)
		if err != nil {
			return nil, err
		}
		raw, err := io.ReadAll(res.Body)
		_ = res.Body.Close()
		if err == nil || attempt == cutOffRetries || !cutOff(err) || (req.Body != nil && req.GetBody == nil) {
			// A failed read stays the body's, as without this transport: the client does
			// not retry it again.
			res.Body = answerBody{Reader: bytes.NewReader(raw), raw: raw, err: err}
			return res, nil
		}
		if req, err = rewound(req); err != nil {
			return nil, err
		}
	}
}

// idempotentRead reports a request that reads and changes nothing: GET and HEAD (a
// scroll's next page aside: it moves the scroll on), and the read-only POSTs.
func idempotentRead(req *http.Request) bool {
	switch req.Method {
	case http.MethodGet, http.MethodHead:
		return !strings.Contains(req.URL.Path, "/_search/scroll")
	case http.MethodPost:
		return readOnlyPosts[path.Base(req.URL.Path)]
	}
	return false
}

func cutOff(err error) bool {
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

// rewound is req to send again, its body from the start.
func rewound(req *http.Request) (*http.Request, error) {
	again := req.Clone(req.Context())
	if req.Body == nil || req.Body == http.NoBody {
		return again, nil
	}
	body, err := req.GetBody()
	if err != nil {
		return nil, err
	}
	again.Body = body
	return again, nil
}

// answerBody is an answer readRetry read whole (err: how its reading failed).
type answerBody struct {
	*bytes.Reader
	raw []byte
	err error
}

func (b answerBody) Read(p []byte) (int, error) {
	n, err := b.Reader.Read(p)
	if err == io.EOF && b.err != nil {
		return n, b.err
	}
	return n, err
}

func (answerBody) Close() error { return nil }

// rest is what is left to read of the body, without a copy.
func (b answerBody) rest() ([]byte, error) {
	return b.raw[len(b.raw)-b.Len():], b.err
}
