package searcher

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

// requestKeyOf is the part of the key r has over indices, the same for each of them;
// ok is false when r may not be cached: it asks for hits, or uses now.
func requestKeyOf(indices []*store.Index, r *Request) (requestKey, bool) {
	if r.Size != 0 {
		return requestKey{}, false
	}
	raw, err := json.Marshal(map[string]any{"query": r.Query, "aggs": r.Aggs, "post_filter": r.PostFilter})
	if err != nil || strings.Contains(string(raw), "now") {
		return requestKey{}, false
	}
	var group strings.Builder
	for _, ix := range indices {
		fmt.Fprintf(&group, "%s@%p,", ix.UUID, ix.Mapping())
	}
	return requestKey{group: group.String(), request: string(raw)}, true
}

// of is k for ix in its state now.
func (k requestKey) of(ix *store.Index) requestKey {
	k.uuid, k.seq = ix.UUID, ix.SearchedSeq()
	return k
}

func cacheResult(k requestKey, res shardResult) {
	if res.aggs.Buckets() <= requestCacheBuckets {
		requestCache.Add(k, res)
	}
}
