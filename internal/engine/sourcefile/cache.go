package sourcefile

import (
	"sync"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// key names one block of one File.
type key struct {
	file  uint64
	block uint32
}

// Cache holds decompressed blocks, least recently used out first, within a byte budget.
type Cache struct {
	mu    sync.Mutex
	lru   *simplelru.LRU[key, []byte]
	bytes int64
	limit int64
}

// NewCache returns a cache of at most limit bytes of decompressed blocks.
func NewCache(limit int64) *Cache {
	c := &Cache{limit: limit}
	// The entry count is bounded by the byte budget, not by the LRU.
	c.lru, _ = simplelru.NewLRU[key, []byte](int(limit/BlockSize)*4+16, func(_ key, b []byte) { c.bytes -= int64(cap(b)) })
	return c
}

func (c *Cache) get(k key) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Get(k)
}

func (c *Cache) put(k key, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if int64(cap(b)) > c.limit {
		return
	}
	if old, ok := c.lru.Peek(k); ok {
		c.bytes -= int64(cap(old))
	}
	c.lru.Add(k, b)
	c.bytes += int64(cap(b))
	for c.bytes > c.limit {
		c.lru.RemoveOldest()
	}
}

// drop removes the first n blocks of a file.
func (c *Cache) drop(file uint64, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := 0; i < n; i++ {
		c.lru.Remove(key{file, uint32(i)})
	}
}

// Bytes is the size of the cached blocks.
func (c *Cache) Bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}
