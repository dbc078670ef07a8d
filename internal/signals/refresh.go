package signals

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/conflicts"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/esread"
	"github.com/aislehq/aisle/internal/relevance"
)

// Refresher computes an index's signals from its events and writes them to its
// signals index. Every step overwrites what the last run wrote, so a run may be
// repeated or interrupted at any point.
type Refresher struct {
	ES *elasticsearch.TypedClient
	// Searches counts the searches of queries (search analytics); nil counts none, and
	// then no query is re-ranked.
	Searches func(ctx context.Context, names esnames.Index, queries []string) (map[string]int64, error)
}

// Report says what a run wrote.
type Report struct {
	Popular, ReRanked int
}

// Run refreshes the signals of the index names under settings s at now.
func (r *Refresher) Run(ctx context.Context, names esnames.Index, s searchv1alpha1.IndexSettings, now time.Time) (Report, error) {
	pop, rr := relevance.PopularityOf(s), relevance.ReRankOf(s)
	var rep Report
	if !pop.Enabled && !rr.Enabled {
		return rep, nil
	}
	if err := r.ensure(ctx, names); err != nil {
		return rep, err
	}
	if pop.Enabled {
		n, err := r.popularity(ctx, names, pop, now)
		if err != nil {
			return rep, err
		}
		rep.Popular = n
	}
	if rr.Enabled {
		n, err := r.reRanking(ctx, names, rr, now)
		if err != nil {
			return rep, err
		}
		rep.ReRanked = n
	}
	return rep, nil
}

func (r *Refresher) ensure(ctx context.Context, names esnames.Index) error {
	_, err := r.ES.Indices.Create(names.Signals()).Raw(strings.NewReader(Mapping)).Do(ctx)
	if err := es.Classify(err); err != nil && !errors.Is(err, es.ErrConflict) {
		return fmt.Errorf("creating signals index %s: %w", names.Signals(), err)
	}
	return nil
}

// popularity writes every level's document (empty ones too: a product that lost its
// events leaves its level), and returns the number of popular products.
func (r *Refresher) popularity(ctx context.Context, names esnames.Index, p relevance.Popularity, now time.Time) (int, error) {
	counts := make([]Counts, len(Windows))
	for i, w := range Windows {
		raw, err := esread.Search(ctx, r.ES, names.EventsPattern()+","+names.Orders(), windowQuery(w, now))
		if err != nil {
			return 0, err
		}
		if counts[i], err = parseWindow(raw); err != nil {
			return 0, err
		}
	}
	levels := Quantise(Scores(counts, p))
	var body bytes.Buffer
	n := 0
	for l := 1; l < Levels; l++ {
		ids := levels[l]
		n += len(ids)
		if err := writeAction(&body, LevelID(l), levelDoc{Kind: kindLevel, RefreshedAt: now.UnixMilli(), IDs: append([]string{}, ids...)}); err != nil {
			return 0, err
		}
	}
	return n, r.bulk(ctx, names, Levels-1, &body)
}

// reRanking writes the scores of the queries with enough searches and deletes the
// documents of the others.
func (r *Refresher) reRanking(ctx context.Context, names esnames.Index, rr relevance.ReRank, now time.Time) (int, error) {
	raw, err := esread.Search(ctx, r.ES, names.EventsPattern(), clicksQuery(now))
	if err != nil {
		return 0, err
	}
	queries, totals, err := parseClicks(raw)
	if err != nil {
		return 0, err
	}
	if err := r.countSearches(ctx, names, queries); err != nil {
		return 0, err
	}
	var body bytes.Buffer
	n := 0
	for _, q := range queries {
		scores := Attractiveness(q, totals, rr.MinSearches)
		if len(scores) == 0 {
			continue
		}
		doc := reRankDoc{Kind: kindReRank, RefreshedAt: now.UnixMilli(), Query: q.Query, Searches: q.Searches, Scores: scores}
		if err := writeAction(&body, ReRankID(q.Query), doc); err != nil {
			return 0, err
		}
		n++
	}
	if n > 0 {
		if err := r.bulk(ctx, names, n, &body); err != nil {
			return 0, err
		}
	}
	return n, r.dropStale(ctx, names, now)
}

func (r *Refresher) countSearches(ctx context.Context, names esnames.Index, queries []QueryClicks) error {
	if r.Searches == nil || len(queries) == 0 {
		return nil
	}
	list := make([]string, len(queries))
	for i, q := range queries {
		list[i] = q.Query
	}
	counts, err := r.Searches(ctx, names, list)
	if err != nil {
		return err
	}
	for i := range queries {
		queries[i].Searches = counts[queries[i].Query]
	}
	return nil
}

// dropStale deletes the re-ranking documents an earlier run wrote.
func (r *Refresher) dropStale(ctx context.Context, names esnames.Index, now time.Time) error {
	q := obj{"query": obj{"bool": obj{"filter": []any{term("kind", kindReRank),
		obj{"range": obj{"refreshedAt": obj{"lt": now.UnixMilli()}}}}}}}
	body, err := json.Marshal(q)
	if err != nil {
		return err
	}
	_, err = es.ReadBody(r.ES.DeleteByQuery(names.Signals()).Conflicts(conflicts.Proceed).Refresh(true).Raw(bytes.NewReader(body)).Perform(ctx)) //nolint:bodyclose // ReadBody closes it
	if err != nil {
		return fmt.Errorf("deleting stale re-ranking of %s: %w", names.Stem(), err)
	}
	return nil
}

func writeAction(buf *bytes.Buffer, id string, doc any) error {
	meta, err := json.Marshal(obj{"index": obj{"_id": id}})
	if err != nil {
		return err
	}
	src, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	buf.Write(meta)
	buf.WriteByte('\n')
	buf.Write(src)
	buf.WriteByte('\n')
	return nil
}

// bulk sends n index actions to the signals index, searchable when it returns.
func (r *Refresher) bulk(ctx context.Context, names esnames.Index, n int, body *bytes.Buffer) error {
	res, err := r.ES.Bulk().Index(names.Signals()).Refresh(refresh.Waitfor).Raw(body).Perform(ctx) //nolint:bodyclose // BulkItems closes it
	items, err := es.BulkItems(n, res, err)
	if err != nil {
		return fmt.Errorf("writing signals of %s: %w", names.Stem(), err)
	}
	for _, it := range items {
		if it.Error != nil {
			return fmt.Errorf("%w: writing signal %s: %s: %s", es.ErrUnavailable, it.ID, it.Error.Type, it.Error.Reason)
		}
	}
	return nil
}
