package events

import (
	"github.com/hashicorp/golang-lru/v2/expirable"
	"golang.org/x/sync/singleflight"
)

// FiguresCache serves figures computed at most StatsTTL ago, by key; concurrent misses
// for the same key share one computation.
type FiguresCache[T any] struct {
	lru   *expirable.LRU[string, T]
	group singleflight.Group
}

// NewFiguresCache returns a cache of at most size entries.
func NewFiguresCache[T any](size int) *FiguresCache[T] {
	return &FiguresCache[T]{lru: expirable.NewLRU[string, T](size, nil, StatsTTL)}
}

// Get returns the figures of key, computing them with compute when none are cached.
func (c *FiguresCache[T]) Get(key string, compute func() (T, error)) (T, error) {
	if v, ok := c.lru.Get(key); ok {
		return v, nil
	}
	v, err, _ := c.group.Do(key, func() (any, error) {
		v, err := compute()
		if err == nil {
			c.lru.Add(key, v)
		}
		return v, err
	})
	if err != nil {
		var zero T
		return zero, err
	}
	return v.(T), nil
}

// PeriodKey is the cache key of the figures of an index over p.
func PeriodKey(stem string, p Period) string {
	return stem + "|" + p.From.Format(dateLayout) + "|" + p.To.Format(dateLayout)
}
