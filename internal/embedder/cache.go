package embedder

import (
	"context"
	"fmt"

	lru "github.com/hashicorp/golang-lru/v2"
)

// Source is what turns a text into a vector: the server, its model, and the dimensions
// (and whether they are sent).
type Source struct {
	URL            string
	Model          string
	Dimensions     int
	SendDimensions bool
}

// Source is the client's.
func (c *Client) Source() Source {
	return Source{URL: c.cfg.URL, Model: c.cfg.Model, Dimensions: c.cfg.Dimensions, SendDimensions: c.cfg.SendDimensions}
}

type queryKey struct {
	source Source
	text   string
}

// QueryCache keeps the vectors of recent queries, so a query asked again costs no call:
// an LRU of bounded size, keyed by the embedder's Source and the text.
type QueryCache struct {
	lru *lru.Cache[queryKey, []float32]
}

// NewQueryCache holds at most size vectors.
func NewQueryCache(size int) (*QueryCache, error) {
	c, err := lru.New[queryKey, []float32](size)
	if err != nil {
		return nil, fmt.Errorf("query vector cache: %w", err)
	}
	return &QueryCache{lru: c}, nil
}

// Vector is text's vector from the cache, or from c (then cached).
func (q *QueryCache) Vector(ctx context.Context, c *Client, text string) ([]float32, error) {
	key := queryKey{source: c.Source(), text: text}
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

// Retain drops the vectors of every source live does not keep (an embedder removed, or
// moved to another model or server), so that the bound holds only vectors a search can
// still use; it answers how many it dropped.
func (q *QueryCache) Retain(live func(Source) bool) int {
	dropped := 0
	for _, k := range q.lru.Keys() {
		if !live(k.source) && q.lru.Remove(k) {
			dropped++
		}
	}
	return dropped
}

// Len is how many vectors the cache holds.
func (q *QueryCache) Len() int { return q.lru.Len() }
