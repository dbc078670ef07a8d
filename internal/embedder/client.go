// Package embedder is a client of the OpenAI embeddings API (POST {url}/v1/embeddings),
// which OpenAI, Ollama, vLLM, Hugging Face TEI and LocalAI speak: texts go in batches,
// each call has its own timeout, and 429s (after their Retry-After), 5xx and timeouts are
// retried with exponential backoff and jitter. Every answer is checked: one vector per
// text, each of the embedder's dimensions.
package embedder

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"
)

// ErrRefused is an answer no retry changes: a 4xx other than 429, or an answer that is
// not one vector of the right length per text.
var ErrRefused = errors.New("the embedder refused")

// ErrUnavailable is a failure retried until the attempts ran out: 429, 5xx, a timeout or
// no answer.
var ErrUnavailable = errors.New("the embedder is unavailable")

// Config is one embedder's server and the client's bounds.
type Config struct {
	// URL is the server's base URL; the client posts to URL + /v1/embeddings.
	URL        string
	Model      string
	Dimensions int
	// SendDimensions sends Dimensions in each request (OpenAI's text-embedding-3 models
	// shorten their vectors to it); other servers refuse or ignore the field.
	SendDimensions bool
	// Token is sent as Authorization: Bearer when set.
	Token string
	// Batch is the most texts a call sends (default 32).
	Batch int
	// CallTimeout bounds one call (default 10s).
	CallTimeout time.Duration
	// Attempts is how many calls a batch gets before it fails (default 5).
	Attempts int
	// Backoff is the first retry's delay, doubled at each retry up to MaxBackoff
	// (defaults 200ms and 10s).
	Backoff, MaxBackoff time.Duration
}

func (c Config) withDefaults() Config {
	if c.Batch <= 0 {
		c.Batch = 32
	}
	if c.CallTimeout <= 0 {
		c.CallTimeout = 10 * time.Second
	}
	if c.Attempts <= 0 {
		c.Attempts = 5
	}
	if c.Backoff <= 0 {
		c.Backoff = 200 * time.Millisecond
	}
	if c.MaxBackoff <= 0 {
		c.MaxBackoff = 10 * time.Second
	}
	return c
}

// Client embeds texts with one embedder's server.
type Client struct {
	cfg  Config
	http *http.Client
}

// New returns a client of cfg's server through hc (http.DefaultClient when nil).
func New(cfg Config, hc *http.Client) *Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	return &Client{cfg: cfg.withDefaults(), http: hc}
}

// Embed returns one vector per text, in order, calling the server once per batch.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += c.cfg.Batch {
		batch := texts[start:min(start+c.cfg.Batch, len(texts))]
		vs, err := c.embedBatch(ctx, batch)
		if err != nil {
			return nil, err
		}
		out = append(out, vs...)
	}
	return out, nil
}

// embedBatch calls the server until it answers, refuses, or the attempts run out.
func (c *Client) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	req := request{Model: c.cfg.Model, Input: texts}
	if c.cfg.SendDimensions {
		req.Dimensions = c.cfg.Dimensions
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encoding the embeddings request: %w", err)
	}
	var last error
	for attempt := 0; attempt < c.cfg.Attempts; attempt++ {
		vs, retryAfter, err := c.call(ctx, body, len(texts))
		if err == nil || errors.Is(err, ErrRefused) || ctx.Err() != nil {
			return vs, err
		}
		last = err
		if attempt == c.cfg.Attempts-1 {
			break
		}
		wait := Delay(attempt, c.cfg.Backoff, c.cfg.MaxBackoff, retryAfter, rand.Float64())
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%w: %w", ErrUnavailable, ctx.Err())
		case <-time.After(wait):
		}
	}
	return nil, fmt.Errorf("%w after %d attempts: %w", ErrUnavailable, c.cfg.Attempts, last)
}

type request struct {
	Model      string   `json:"model"`
	Input      []string `json:"input"`
	Dimensions int      `json:"dimensions,omitempty"`
}

type response struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// call makes one call under its own timeout; a retryable failure comes with the
// answer's Retry-After, if any.
func (c *Client) call(ctx context.Context, body []byte, n int) ([][]float32, string, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.CallTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(c.cfg.URL, "/")+"/v1/embeddings", bytes.NewReader(body))
	if err != nil {
		return nil, "", fmt.Errorf("%w: %w", ErrRefused, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.cfg.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.cfg.Token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, "", fmt.Errorf("calling %s: %w", c.cfg.URL, err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, "", fmt.Errorf("reading the answer of %s: %w", c.cfg.URL, err)
	}
	if resp.StatusCode != http.StatusOK {
		err := fmt.Errorf("%s answered %d: %s", c.cfg.URL, resp.StatusCode, snippet(raw))
		if Retryable(resp.StatusCode) {
			return nil, resp.Header.Get("Retry-After"), err
		}
		return nil, "", fmt.Errorf("%w: %w", ErrRefused, err)
	}
	vs, err := decode(raw, n, c.cfg.Dimensions)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %s: %w", ErrRefused, c.cfg.URL, err)
	}
	return vs, "", nil
}

// decode orders the answer's vectors by index and checks there is one per text, each
// of dims numbers.
func decode(raw []byte, n, dims int) ([][]float32, error) {
	var r response
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("the answer is not an embeddings list: %w", err)
	}
	if len(r.Data) != n {
		return nil, fmt.Errorf("%d vectors for %d texts", len(r.Data), n)
	}
	out := make([][]float32, n)
	for _, d := range r.Data {
		if d.Index < 0 || d.Index >= n || out[d.Index] != nil {
			return nil, fmt.Errorf("the answer's index %d is out of place", d.Index)
		}
		if dims > 0 && len(d.Embedding) != dims {
			return nil, fmt.Errorf("a vector of %d numbers, the embedder's dimensions are %d", len(d.Embedding), dims)
		}
		out[d.Index] = d.Embedding
	}
	return out, nil
}

func snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
