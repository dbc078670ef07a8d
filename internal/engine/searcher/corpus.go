package searcher

import (
	"bytes"
	"encoding/json"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/store"
)

// corpus is what more_like_this reads of the searched indices (dsl.Corpus): documents
// in real time, as Elasticsearch's term vectors read them, and the indices' term
// statistics summed, as a search with dfs_query_then_fetch would see them.
type corpus struct{ indices []*store.Index }

// Source reads document id of index, or of the first searched index holding it.
func (c corpus) Source(index, id string) (map[string]any, bool, error) {
	targets := c.indices
	if index != "" && len(c.indices) > 0 {
		resolved, err := c.indices[0].Store().Resolve(index, store.ResolveOpts{})
		if err != nil {
			return nil, false, err
		}
		if len(resolved) != 1 {
			return nil, false, eserr.IllegalArgument("[more_like_this] item index [%s] resolves to %d indices; it must name one", index, len(resolved))
		}
		targets = resolved
	}
	for _, ix := range targets {
		d, err := ix.Get(id)
		if err != nil {
			return nil, false, err
		}
		if d == nil {
			continue
		}
		var src map[string]any
		dec := json.NewDecoder(bytes.NewReader(d.Source))
		dec.UseNumber()
		if err := dec.Decode(&src); err != nil {
			return nil, false, err
		}
		return src, true, nil
	}
	return nil, false, nil
}

// DocFreq is how many documents of the searched indices hold term in field.
func (c corpus) DocFreq(field, term string) int {
	n := 0
	for _, ix := range c.indices {
		d, err := ix.Bleve().FieldDictPrefix(field, []byte(term))
		if err != nil {
			continue
		}
		if e, err := d.Next(); err == nil && e != nil && e.Term == term {
			n += int(e.Count)
		}
		_ = d.Close()
	}
	return n
}

// NumDocs is how many documents the searched indices hold.
func (c corpus) NumDocs() int {
	n := 0
	for _, ix := range c.indices {
		n += int(ix.SearchableCount())
	}
	return n
}
