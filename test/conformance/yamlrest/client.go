package yamlrest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Response is the outcome of one request, kept for the assertions that
// follow a `do`.
type Response struct {
	Method string
	Status int
	Header http.Header
	Raw    []byte
	// Body is the parsed JSON body; for HEAD requests it is a bool (status
	// 200), since exists APIs answer without a body.
	Body any
}

// String renders the response for failure messages.
func (r *Response) String() string {
	if r == nil {
		return "(no response)"
	}
	raw := string(r.Raw)
	if len(raw) > 4000 {
		raw = raw[:4000] + "...(truncated)"
	}
	return fmt.Sprintf("HTTP %d %s", r.Status, raw)
}

// Warnings returns the text of the Warning headers (RFC 7234 form
// `299 Elasticsearch-8.x "text" "date"`, or plain text).
func (r *Response) Warnings() []string {
	var out []string
	for _, h := range r.Header.Values("Warning") {
		out = append(out, warningText(h))
	}
	return out
}

func warningText(h string) string {
	i := strings.Index(h, `"`)
	if i < 0 {
		return h
	}
	rest := h[i+1:]
	var sb strings.Builder
	for j := 0; j < len(rest); j++ {
		if rest[j] == '\\' && j+1 < len(rest) {
			sb.WriteByte(rest[j+1])
			j++
			continue
		}
		if rest[j] == '"' {
			break
		}
		sb.WriteByte(rest[j])
	}
	return sb.String()
}

// send performs the request against base.
func send(ctx context.Context, c *http.Client, base string, req *Request) (*Response, error) {
	u := strings.TrimSuffix(base, "/") + req.Path
	if q := req.Query.Encode(); q != "" {
		u += "?" + q
	}
	var body io.Reader
	if req.hasBody {
		body = bytes.NewReader(req.Body)
	}
	hr, err := http.NewRequestWithContext(ctx, req.Method, u, body)
	if err != nil {
		return nil, err
	}
	for k, vs := range req.Header {
		hr.Header[k] = vs
	}
	if hr.Header.Get("Accept") == "" {
		hr.Header.Set("Accept", "application/json")
	}
	resp, err := c.Do(hr)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	out := &Response{Method: req.Method, Status: resp.StatusCode, Header: resp.Header, Raw: raw}
	switch {
	case req.Method == http.MethodHead:
		out.Body = resp.StatusCode == http.StatusOK
	case len(bytes.TrimSpace(raw)) > 0:
		if v, err := decodeJSON(raw); err == nil {
			out.Body = v
		} else {
			out.Body = string(raw)
		}
	}
	return out, nil
}
