// Package transfer moves records between a file and an index over Aisle's HTTP API:
// export reads GET /records pages, import sends POST /records batches or a staged
// replacement. It speaks only the documented API, so it works against any deployment.
package transfer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Client calls one index of Aisle's HTTP API with a key.
type Client struct {
	BaseURL   string // e.g. http://127.0.0.1:7280
	Workspace string
	Index     string
	Key       string
	HTTP      *http.Client
	Retry     RetryPolicy
	// Sleep waits between attempts; nil waits on a timer (tests may shorten it).
	Sleep func(ctx context.Context, d time.Duration) error
}

// Receipt is the API's write receipt.
type Receipt struct {
	AcceptedRevision int64 `json:"acceptedRevision"`
	IndexedRevision  int64 `json:"indexedRevision"`
	RecordCount      int64 `json:"recordCount"`
}

// APIError is an answer the API gave up on, with its status and error message.
type APIError struct {
	Method, Path string
	Status       int
	Message      string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("%s %s: %d %s", e.Method, e.Path, e.Status, e.Message)
}

// StatusOf returns the HTTP status of an APIError in err's chain, or 0.
func StatusOf(err error) int {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.Status
	}
	return 0
}

func (c *Client) indexURL(path string, query url.Values) string {
	u := strings.TrimRight(c.BaseURL, "/") + "/api/teams/" + url.PathEscape(c.Workspace) +
		"/indexes/" + url.PathEscape(c.Index) + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	return u
}

// call sends one request, retrying as the policy says, and decodes a 2xx body into out
// (when out is not nil). It returns the final status.
func (c *Client) call(ctx context.Context, method, path string, query url.Values, body []byte, out any) (int, error) {
	for attempt := 1; ; attempt++ {
		status, payload, header, err := c.once(ctx, method, path, query, body)
		if err != nil && ctx.Err() != nil {
			return 0, fmt.Errorf("%s %s: %w", method, path, ctx.Err())
		}
		wait, again := c.Retry.Next(attempt, status, header.Get("Retry-After"), err != nil)
		if again {
			if err := c.sleep(ctx, wait); err != nil {
				return 0, fmt.Errorf("%s %s: %w", method, path, err)
			}
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("%s %s after %d attempts: %w", method, path, attempt, err)
		}
		if status < 200 || status > 299 {
			return status, &APIError{Method: method, Path: path, Status: status, Message: errorMessage(payload)}
		}
		if out != nil {
			if err := json.Unmarshal(payload, out); err != nil {
				return status, fmt.Errorf("%s %s: decoding the %d answer: %w", method, path, status, err)
			}
		}
		return status, nil
	}
}

func (c *Client) once(ctx context.Context, method, path string, query url.Values, body []byte) (int, []byte, http.Header, error) {
	var reader io.Reader
	if body != nil {
		reader = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.indexURL(path, query), reader)
	if err != nil {
		return 0, nil, http.Header{}, err
	}
	req.Header.Set("Authorization", "Bearer "+c.Key)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	httpClient := c.HTTP
	if httpClient == nil {
		httpClient = http.DefaultClient
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return 0, nil, http.Header{}, err
	}
	defer resp.Body.Close()
	payload, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, resp.Header, err
	}
	return resp.StatusCode, payload, resp.Header, nil
}

func (c *Client) sleep(ctx context.Context, d time.Duration) error {
	if c.Sleep != nil {
		return c.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// errorMessage is the API's {"error": "..."} message, or the body itself when it is not one.
func errorMessage(payload []byte) string {
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(payload, &e) == nil && e.Error != "" {
		return e.Error
	}
	const max = 200
	s := strings.TrimSpace(string(payload))
	if len(s) > max {
		s = s[:max] + "..."
	}
	return s
}
