package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// ExportKeepAlive is how long an export's snapshot lives after its last page was read.
const ExportKeepAlive = "5m"

// ExportPage is a page of GET /records: records in objectID order, and the cursor of
// the next page (nil on the last).
type ExportPage struct {
	Records []json.RawMessage `json:"records"`
	Cursor  *string           `json:"cursor"`
}

// Export reads a page of at most limit records matching filters (search clauses; none:
// every record), in objectID order, from one snapshot: the first page (cur nil) opens a
// point in time on the index's alias, and every later page reads that same point in time
// after the cursor's last record, so records written or deleted meanwhile neither shift
// pages nor appear in them. The last page closes the point in time.
func (s *Service) Export(ctx context.Context, t Target, limit int, cur *Cursor, filters []any) (ExportPage, error) {
	alias := t.Names.Alias()
	if cur == nil {
		open, err := s.es.OpenPointInTime(alias).KeepAlive(ExportKeepAlive).Do(ctx)
		if err != nil {
			return ExportPage{}, fmt.Errorf("opening a snapshot of %s: %w", alias, es.Classify(err))
		}
		cur = &Cursor{PIT: open.Id, Alias: alias, Filters: filtersKey(filters)}
	} else if cur.Alias != alias || cur.Filters != filtersKey(filters) {
		return ExportPage{}, errBadCursor()
	}
	hits, err := s.exportHits(ctx, *cur, limit, filters)
	if err != nil {
		return ExportPage{}, err
	}
	for _, h := range hits {
		if _, err := t.Names.Generation(h.Index); err != nil {
			return ExportPage{}, errBadCursor() // a snapshot of another index
		}
	}
	more := len(hits) > limit
	page, err := exportPage(hits[:min(len(hits), limit)])
	if err != nil {
		return ExportPage{}, err
	}
	if !more {
		s.closeSnapshot(ctx, cur.PIT)
		return page, nil
	}
	next := Cursor{PIT: cur.PIT, After: hits[limit-1].Sort, Alias: alias, Filters: cur.Filters}
	c := next.Encode()
	page.Cursor = &c
	return page, nil
}

// exportHits searches the point in time of cur for limit+1 records after cur.After.
func (s *Service) exportHits(ctx context.Context, cur Cursor, limit int, filters []any) ([]exportHit, error) {
	query := map[string]any{"match_all": map[string]any{}}
	if len(filters) > 0 {
		query = map[string]any{"bool": map[string]any{"filter": filters}}
	}
	req := map[string]any{"size": limit + 1, "query": query, "track_total_hits": false,
		// objectID is unique: _shard_doc only breaks ties Elasticsearch would see between
		// copies of a record during a swap's brief overlap.
		"sort": []any{map[string]any{indexmapping.ObjectIDField: "asc"}, map[string]any{"_shard_doc": "asc"}},
		"pit":  map[string]any{"id": cur.PIT, "keep_alive": ExportKeepAlive}}
	if cur.After != nil {
		req["search_after"] = cur.After
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encoding an export page: %w", err)
	}
	res, err := s.es.Search().Raw(bytes.NewReader(body)).Perform(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the records of %s: %w", cur.Alias, es.Classify(err))
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	switch {
	case err != nil:
		return nil, fmt.Errorf("reading the records of %s: %w: %w", cur.Alias, es.ErrUnavailable, err)
	case res.StatusCode == http.StatusNotFound && bytes.Contains(raw, []byte("search_context_missing_exception")):
		return nil, ErrCursorExpired
	case res.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("reading the records of %s: status %d: %w", cur.Alias, res.StatusCode, es.ErrUnavailable)
	}
	var out struct {
		Hits struct {
			Hits []exportHit `json:"hits"`
		} `json:"hits"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("decoding the records of %s: %w", cur.Alias, err)
	}
	return out.Hits.Hits, nil
}

// closeSnapshot closes an export's point in time once its last page is read; one left
// open (the engine unreachable for a moment) expires after ExportKeepAlive.
func (s *Service) closeSnapshot(ctx context.Context, pit string) {
	_, _ = s.es.ClosePointInTime().Id(pit).Do(ctx) //nolint:errcheck // see above
}

// exportHit is a hit of an export page's search.
type exportHit struct {
	Index  string            `json:"_index"`
	Source json.RawMessage   `json:"_source"`
	Sort   []json.RawMessage `json:"sort"`
}

// exportPage is the records of hits.
func exportPage(hits []exportHit) (ExportPage, error) {
	page := ExportPage{Records: make([]json.RawMessage, len(hits))}
	for i, h := range hits {
		fields, _, err := storedFields(h.Source)
		if err != nil {
			return ExportPage{}, err
		}
		if page.Records[i], err = EncodeRecord(fields); err != nil {
			return ExportPage{}, err
		}
	}
	return page, nil
}

// ExportAll calls emit with every record matching filters, page by page from one
// snapshot, from cur (nil: the first record) on: memory holds one page at a time.
func (s *Service) ExportAll(ctx context.Context, t Target, cur *Cursor, filters []any, emit func(json.RawMessage) error) error {
	for {
		page, err := s.Export(ctx, t, MaxExportPage, cur, filters)
		if err != nil {
			return err
		}
		for _, rec := range page.Records {
			if err := emit(rec); err != nil {
				return err
			}
		}
		if page.Cursor == nil {
			return nil
		}
		if cur, err = DecodeCursor(*page.Cursor); err != nil {
			return err
		}
	}
}
