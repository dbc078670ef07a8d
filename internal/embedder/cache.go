package embedder

import (
	"context"
	"fmt"

	lru "github.com/hashicorp/golang-lru/v2"
)

// QueryCache keeps the vectors of recent queries, so a query asked again costs no call:
// an LRU of bounded size, keyed by the embedder's server, model, dimensions (and whether they are sent) and text.
type QueryCache struct {
	lru *lru.Cache[string, []float32]
}

// NewQueryCache holds at most size vectors.
func NewQueryCache(size int) (*QueryCache, error) {
	c, err := lru.New[string, []float32](size)
	if err != nil {
		return nil, fmt.Errorf("query vector cache: %w", err)
	}
	return &QueryCache{lru: c}, nil
}

// Vector is text's vector from the cache, or from c (then cached).
func (q *QueryCache) Vector(ctx context.Context, c *Client, text string) ([]float32, error) {
	key := fmt.Sprintf("%s\x00%s\x00%d\x00%t\x00%s", c.cfg.URL, c.cfg.Model, c.cfg.Dimensions, c.cfg.SendDimensions, text)
	if v, ok := q.lru.Get(key); ok {
		return v, nil
	}
	vs, err := c.Embed(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	q.lru.Add(key, vs[0])
	return vs[0], nil
}
