package searcher

import (
	"github.com/aislehq/aisle/internal/engine/eserr"
)

// PITRef is a search's point in time: the id of an open one and, when set, the
// keep_alive that extends it.
type PITRef struct {
	ID        string
	KeepAlive string
}

// shardDoc is the sort field of Elasticsearch's tiebreaker of point in time searches. A
// point in time here holds each index as one shard whose documents are ordered by _id,
// so it sorts and renders as _id: a total order that search_after pages through.
const shardDoc = "_shard_doc"

func parsePIT(v any) (*PITRef, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, eserr.Parsing("[pit] must be an object")
	}
	ref := &PITRef{}
	for k, val := range m {
		s, ok := val.(string)
		if !ok {
			return nil, eserr.Parsing("[point_in_time] failed to parse field [%s]", k)
		}
		switch k {
		case "id":
			ref.ID = s
		case "keep_alive":
			ref.KeepAlive = s
		default:
			return nil, eserr.Parsing("[point_in_time] unknown field [%s]", k)
		}
	}
	if ref.ID == "" {
		return nil, eserr.Parsing("[point_in_time] requires [id]")
	}
	return ref, nil
}

// bindShardDoc refuses _shard_doc outside a point in time, as Elasticsearch does, and
// sorts it as _id inside one.
func (r *Request) bindShardDoc() error {
	for i, sp := range r.Sort {
		if sp.Field != shardDoc {
			continue
		}
		if r.PIT == nil {
			return eserr.ActionValidation("[_shard_doc] sort field cannot be used without [point in time]")
		}
		r.Sort[i].Field = "_id"
	}
	return nil
}
