package columns

import (
	"time"

	segment "github.com/blevesearch/scorch_segment_api/v2"

	"github.com/aislehq/aisle/internal/engine/segcache"
)

// idleTTL is how long a column may go unused before it is dropped: segments merged away
// are never asked for again, and a column of a live segment is cheap to rebuild.
const idleTTL = 2 * time.Minute

type key struct {
	seg    segment.Segment
	field  string
	prefix string
}

// cache is shared by every index: keys are segments, which are unique objects.
var cache = segcache.New[key, *Column](idleTTL)

// Field returns the column of field (terms starting with prefix) for every segment of the
// view, building the missing ones. Concurrent searches wanting the same column wait for
// one build.
func (v *View) Field(field, prefix string) ([]*Column, error) {
	out := make([]*Column, len(v.segs))
	now := time.Now()
	for i, seg := range v.segs {
		col, err := cache.Get(key{seg: seg, field: field, prefix: prefix}, now, func() (*Column, error) {
			return build(seg, field, []byte(prefix))
		})
		if err != nil {
			return nil, err
		}
		out[i] = col
	}
	return out, nil
}
