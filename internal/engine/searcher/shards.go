package searcher

import (
	"errors"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/store"
)

// shardFailure is one entry of _shards.failures.
type shardFailure struct {
	index string
	cause *eserr.Error
}

// dropFailingIndices parses the query against each index on its own, as ES does per shard:
// an index whose mapping makes the query fail (a query_shard_exception, e.g. a date in
// another format) becomes a shard failure while the others are searched. Syntax errors
// fail the whole request. With a single index there is nothing to split.
func dropFailingIndices(indices []*store.Index, raw any) ([]*store.Index, []shardFailure, error) {
	if len(indices) < 2 || raw == nil {
		return indices, nil, nil
	}
	var ok []*store.Index
	var failed []shardFailure
	for _, ix := range indices {
		_, _, err := BuildQuery([]*store.Index{ix}, raw)
		if e := (*eserr.Error)(nil); errors.As(err, &e) && e.Type == "query_shard_exception" {
			failed = append(failed, shardFailure{index: ix.Name, cause: e})
			continue
		}
		ok = append(ok, ix)
	}
	if len(ok) == 0 {
		return nil, nil, eserr.SearchPhase(failed[0].cause)
	}
	return ok, failed, nil
}

// shardsWithFailures is the _shards object of a search where some indices failed.
func shardsWithFailures(searched int, failed []shardFailure) map[string]any {
	total := searched + len(failed)
	s := map[string]any{"total": total, "successful": searched, "skipped": 0, "failed": len(failed)}
	if len(failed) > 0 {
		list := make([]any, len(failed))
		for i, f := range failed {
			list[i] = map[string]any{"shard": 0, "index": f.index, "node": "aisle-node", "reason": f.cause.BodyJSON()}
		}
		s["failures"] = list
	}
	return s
}

// shardCheckOrder returns the error ES reports when a request fails a shard-level check
// (result window, search_after shape): shards parse the query first, so a query error
// wins over it. Coordinator-level validation errors are returned as they are.
func shardCheckOrder(indices []*store.Index, r *Request, err error) error {
	if e := (*eserr.Error)(nil); !errors.As(err, &e) || e.Type != "search_phase_execution_exception" || len(indices) == 0 || r.Query == nil {
		return err
	}
	if _, _, qerr := BuildQuery(indices, r.Query); qerr != nil {
		return qerr
	}
	return err
}
