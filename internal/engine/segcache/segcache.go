// Package segcache keeps values computed once per immutable segment (with a field, or
// any other key part) and shared by every search: a refresh or merge brings new segments,
// whose values are computed on first use; the values of segments merged away, never
// asked for again, are dropped once unused for a while.
package segcache

import (
	"sync"
	"time"
)

// Cache maps keys, which name a segment, to values built once.
type Cache[K comparable, V any] struct {
	idle      time.Duration
	mu        sync.Mutex
	m         map[K]*entry[V]
	lastSweep time.Time
}

type entry[V any] struct {
	once sync.Once
	v    V
	err  error
	used time.Time
}

// New returns a cache that drops a value unused for idle.
func New[K comparable, V any](idle time.Duration) *Cache[K, V] {
	return &Cache[K, V]{idle: idle, m: map[K]*entry[V]{}}
}

// Get returns k's value, built by build the first time; concurrent callers of a missing
// value wait for one build.
func (c *Cache[K, V]) Get(k K, now time.Time, build func() (V, error)) (V, error) {
	c.mu.Lock()
	e := c.m[k]
	if e == nil {
		e = &entry[V]{}
		c.m[k] = e
		c.sweepLocked(now)
	}
	e.used = now
	c.mu.Unlock()
	e.once.Do(func() { e.v, e.err = build() })
	return e.v, e.err
}

// sweepLocked drops the values unused for idle, at most once per idle.
func (c *Cache[K, V]) sweepLocked(now time.Time) {
	if now.Sub(c.lastSweep) < c.idle {
		return
	}
	c.lastSweep = now
	for k, e := range c.m {
		if now.Sub(e.used) > c.idle {
			delete(c.m, k)
		}
	}
}
