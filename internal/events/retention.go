package events

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/expandwildcard"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
)

const (
	// EventMonths is how many months event indices are kept after their month ended.
	EventMonths = 3
	// VisitorKept is how long a browser order keeps its visitor hash.
	VisitorKept = 48 * time.Hour
	// visitorPage is how many orders one pass strips of their visitor hash.
	visitorPage = 500
	// visitorPasses bounds the passes of one run; what is left waits for the next run.
	visitorPasses = 20
)

// Retention deletes what the contract keeps no longer: event and search log indices
// three months after their month, orders after 400 days, visitor hashes of browser orders after two days,
// and the salts and visitor counters of past days.
type Retention struct {
	ES *elasticsearch.TypedClient
}

// RetentionReport says what one run removed.
type RetentionReport struct {
	EventIndices    []string
	SearchIndices   []string
	Orders          int64
	VisitorsRemoved int
	ControlDocs     int64
}

// Run applies retention to the data of idx as of now.
func (r *Retention) Run(ctx context.Context, idx esnames.Index, now time.Time) (RetentionReport, error) {
	var rep RetentionReport
	var err error
	if rep.EventIndices, err = r.deleteMonthly(ctx, idx.EventsPattern(), now); err != nil {
		return rep, err
	}
	if rep.SearchIndices, err = r.deleteMonthly(ctx, idx.SearchesPattern(), now); err != nil {
		return rep, err
	}
	if rep.Orders, err = r.deleteByQuery(ctx, idx.Orders(), olderThan("timestamp", now.Add(-OrderWindow))); err != nil {
		return rep, err
	}
	if rep.VisitorsRemoved, err = r.removeVisitors(ctx, idx.Orders(), now.Add(-VisitorKept)); err != nil {
		return rep, err
	}
	rep.ControlDocs, err = r.deleteByQuery(ctx, idx.Control(), pastDayControlDocs(now))
	return rep, err
}

// ExpiredMonthly picks, among index names, the monthly indices of pattern (a name
// ending in "*" where the month goes, as esnames.Index.EventsPattern and
// SearchesPattern) whose month ended more than EventMonths months before now.
func ExpiredMonthly(pattern string, names []string, now time.Time) []string {
	prefix := strings.TrimSuffix(pattern, "*")
	limit := now.UTC().AddDate(0, -EventMonths, 0)
	var out []string
	for _, n := range names {
		month, err := time.Parse("2006.01", strings.TrimPrefix(n, prefix))
		if err != nil || !strings.HasPrefix(n, prefix) {
			continue
		}
		if !month.AddDate(0, 1, 0).After(limit) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// deleteMonthly deletes the expired monthly indices of pattern.
func (r *Retention) deleteMonthly(ctx context.Context, pattern string, now time.Time) ([]string, error) {
	res, err := r.ES.Indices.Get(pattern).ExpandWildcards(expandwildcard.Open, expandwildcard.Closed).
		AllowNoIndices(true).IgnoreUnavailable(true).Do(ctx)
	if err := es.Classify(err); err != nil && !errors.Is(err, es.ErrNotFound) {
		return nil, fmt.Errorf("listing indices %s: %w", pattern, err)
	}
	names := make([]string, 0, len(res))
	for n := range res {
		names = append(names, n)
	}
	expired := ExpiredMonthly(pattern, names, now)
	for _, n := range expired {
		_, err := r.ES.Indices.Delete(n).Do(ctx)
		if err := es.Classify(err); err != nil && !errors.Is(err, es.ErrNotFound) {
			return nil, fmt.Errorf("deleting monthly index %s: %w", n, err)
		}
	}
	return expired, nil
}

func olderThan(field string, t time.Time) obj {
	return obj{"range": obj{field: obj{"lt": t.UnixMilli()}}}
}

// pastDayControlDocs selects the salts and visitor counters made before today (UTC):
// each belongs to the day it was made on.
func pastDayControlDocs(now time.Time) obj {
	today := now.UTC().Truncate(24 * time.Hour)
	return obj{"bool": obj{"filter": []any{
		obj{"terms": obj{"kind": []string{KindSalt, KindVisitor}}},
		olderThan("createdAt", today),
	}}}
}

// deleteByQuery deletes the documents of index matching q; a missing index has none.
func (r *Retention) deleteByQuery(ctx context.Context, index string, q obj) (int64, error) {
	body, err := json.Marshal(obj{"query": q})
	if err != nil {
		return 0, err
	}
	raw, err := es.ReadBody(r.ES.DeleteByQuery(index).Raw(bytes.NewReader(body)).Perform(ctx)) //nolint:bodyclose // ReadBody closes it
	if errors.Is(err, es.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("deleting from %s: %w", index, err)
	}
	var ans struct {
		Deleted  int64             `json:"deleted"`
		Failures []json.RawMessage `json:"failures"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		return 0, fmt.Errorf("decoding the delete-by-query answer of %s: %w", index, err)
	}
	if len(ans.Failures) > 0 {
		return ans.Deleted, fmt.Errorf("deleting from %s: %d failures, first %s", index, len(ans.Failures), ans.Failures[0])
	}
	return ans.Deleted, nil
}
