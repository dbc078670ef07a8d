package signals

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/hashicorp/golang-lru/v2/expirable"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
)

// ReadTTL is how long a replica reuses what it read of the signals: the operator
// refreshes them hourly, and a search must not wait for a read.
const ReadTTL = time.Minute

// absentTTL is how long an absent signals index is believed absent: the operator
// creates it within a reconcile of the setting's change.
const absentTTL = 5 * time.Second

// Reader reads an index's signals for searches, through caches.
type Reader struct {
	es      *elasticsearch.TypedClient
	present *expirable.LRU[string, bool]
	absent  *expirable.LRU[string, bool]
	scores  *expirable.LRU[string, map[string]float64]
	// unscored are the queries without scores, believed so for absentTTL only: the
	// refresh that scores them may come at any moment.
	unscored *expirable.LRU[string, bool]
}

// NewReader returns a reader on client.
func NewReader(client *elasticsearch.TypedClient) *Reader {
	return &Reader{es: client, present: expirable.NewLRU[string, bool](4096, nil, ReadTTL),
		absent:   expirable.NewLRU[string, bool](4096, nil, absentTTL),
		scores:   expirable.NewLRU[string, map[string]float64](16384, nil, ReadTTL),
		unscored: expirable.NewLRU[string, bool](16384, nil, absentTTL)}
}

// Ready reports that the signals index of names exists, so that a search may look its
// popularity levels up (a terms lookup on a missing index fails the search).
func (r *Reader) Ready(ctx context.Context, names esnames.Index) (bool, error) {
	idx := names.Signals()
	if _, ok := r.present.Get(idx); ok {
		return true, nil
	}
	if _, ok := r.absent.Get(idx); ok {
		return false, nil
	}
	ok, err := r.es.Indices.Exists(idx).Do(ctx)
	if err != nil {
		return false, fmt.Errorf("checking signals index %s: %w", idx, es.Classify(err))
	}
	if ok {
		r.present.Add(idx, true)
	} else {
		r.absent.Add(idx, true)
	}
	return ok, nil
}

// ReRankScores returns the re-ranking scores of query (normalised as a click's) by
// objectID; none when the query has too few searches or clicks, or no signals index.
func (r *Reader) ReRankScores(ctx context.Context, names esnames.Index, query string) (map[string]float64, error) {
	key := names.Signals() + "\x00" + query
	if s, ok := r.scores.Get(key); ok {
		return s, nil
	}
	if _, ok := r.unscored.Get(key); ok {
		return nil, nil
	}
	res, err := r.es.Get(names.Signals(), ReRankID(query)).Do(ctx)
	err = es.Classify(err)
	switch {
	case errors.Is(err, es.ErrNotFound):
		r.unscored.Add(key, true)
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("reading re-ranking of %s: %w", names.Stem(), err)
	}
	var doc reRankDoc
	if res.Found && len(res.Source_) > 0 {
		if err := json.Unmarshal(res.Source_, &doc); err != nil {
			return nil, fmt.Errorf("decoding re-ranking of %s: %w", names.Stem(), err)
		}
	}
	if len(doc.Scores) == 0 {
		r.unscored.Add(key, true)
		return nil, nil
	}
	r.scores.Add(key, doc.Scores)
	return doc.Scores, nil
}
