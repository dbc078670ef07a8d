package columns

import (
	"sync"
	"time"

	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// idleTTL is how long a column may go unused before it is dropped: segments merged away
// are never asked for again, and a column of a live segment is cheap to rebuild.
const idleTTL = 2 * time.Minute

type key struct {
	seg    segment.Segment
	field  string
	prefix string
}

type entry struct {
	once sync.Once
	col  *Column
	err  error
	used time.Time
}

// cache is shared by every index: keys are segments, which are unique objects.
var cache = struct {
	sync.Mutex
	m         map[key]*entry
	lastSweep time.Time
}{m: map[key]*entry{}}

// Field returns the column of field (terms starting with prefix) for every segment of the
// view, building the missing ones. Concurrent searches wanting the same column wait for
// one build.
func (v *View) Field(field, prefix string) ([]*Column, error) {
	out := make([]*Column, len(v.segs))
	now := time.Now()
	for i, seg := range v.segs {
		k := key{seg: seg, field: field, prefix: prefix}
		cache.Lock()
		e := cache.m[k]
		if e == nil {
			e = &entry{}
			cache.m[k] = e
			sweepLocked(now)
		}
		e.used = now
		cache.Unlock()
		e.once.Do(func() { e.col, e.err = build(seg, field, []byte(prefix)) })
		if e.err != nil {
			return nil, e.err
		}
		out[i] = e.col
	}
	return out, nil
}

// sweepLocked drops columns unused for idleTTL, at most once per idleTTL.
func sweepLocked(now time.Time) {
	if now.Sub(cache.lastSweep) < idleTTL {
		return
	}
	cache.lastSweep = now
	for k, e := range cache.m {
		if now.Sub(e.used) > idleTTL {
			delete(cache.m, k)
		}
	}
}
