package search

import (
	"encoding/json"
	"fmt"
	"strings"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/aislehq/aisle/internal/engine/aggs"
	"github.com/aislehq/aisle/internal/engine/store"
)

// Elasticsearch's shard request cache: the aggregations and hit count of a search that
// asks for no hits are kept per index and per refresh, so that the same search over an
// index that has not refreshed since (a past month's events, say) is a lookup. As in ES,
// a refresh that changes what searches see, or a new mapping, makes a new key, and a
// request that uses `now` is not cached.
const (
	requestCacheEntries = 512
	// requestCacheBuckets is the most buckets an entry may hold: a terms aggregation
	// over every product of a large catalog is not worth the memory.
	requestCacheBuckets = 50000
)

var requestCache, _ = lru.New[requestKey, shardResult](requestCacheEntries)

// requestKey names a search of one index in one state. The indices searched with it
// and their mappings are part of the key: a field's type across them decides how the
// index's values are read.
type requestKey struct {
	uuid    string
	seq     int64
	group   string
	request string
}

// shardResult is what a search of one index collected.
type shardResult struct {
	total uint64
	aggs  aggs.Result
}

// cacheKey is the key of r over ix, searched among indices; ok is false when r may not
// be cached.
func cacheKey(ix *store.Index, indices []*store.Index, r *Request) (requestKey, bool) {
	raw, err := json.Marshal(map[string]any{"query": r.Query, "aggs": r.Aggs})
	if err != nil || strings.Contains(string(raw), "now") {
		return requestKey{}, false
	}
	var group strings.Builder
	for _, other := range indices {
		fmt.Fprintf(&group, "%s@%p,", other.UUID, other.Mapping())
	}
	return requestKey{uuid: ix.UUID, seq: ix.SearchedSeq(), group: group.String(), request: string(raw)}, true
}

func cacheResult(k requestKey, res shardResult) {
	if res.aggs.Buckets() <= requestCacheBuckets {
		requestCache.Add(k, res)
	}
}
