package catalog

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"unicode/utf8"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// MaxExportPage is the most records one page of GET /records holds.
const MaxExportPage = 1000

// ExportPage is a page of GET /records: records in objectID order, and the cursor of
// the next page (nil on the last).
type ExportPage struct {
	Records []json.RawMessage `json:"records"`
	Cursor  *string           `json:"cursor"`
}

// ParseExportQuery reads GET /records' limit (default MaxExportPage) and cursor, which
// becomes the objectID the page starts after ("" for the first page).
func ParseExportQuery(limit, cursor string) (int, string, error) {
	n := MaxExportPage
	if limit != "" {
		var err error
		if n, err = strconv.Atoi(limit); err != nil || n < 1 || n > MaxExportPage {
			return 0, "", Invalid("limit must be an integer from 1 to %d", MaxExportPage)
		}
	}
	if cursor == "" {
		return n, "", nil
	}
	id, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil || len(id) == 0 || !utf8.Valid(id) {
		return 0, "", Invalid("cursor is not one a page of GET /records returned")
	}
	return n, string(id), nil
}

// Export reads a page of at most limit records after the objectID after, in objectID
// order (search_after on the keyword objectID): a record written meanwhile appears on a
// later page when its objectID sorts after the pages read, not otherwise.
func (s *Service) Export(ctx context.Context, t Target, limit int, after string) (ExportPage, error) {
	req := map[string]any{"size": limit + 1, "sort": []any{map[string]any{indexmapping.ObjectIDField: "asc"}},
		"query": map[string]any{"match_all": map[string]any{}}, "track_total_hits": false}
	if after != "" {
		req["search_after"] = []any{after}
	}
	body, err := json.Marshal(req)
	if err != nil {
		return ExportPage{}, fmt.Errorf("encoding an export page: %w", err)
	}
	alias := t.Names.Alias()
	res, err := s.es.Search().Index(alias).Raw(bytes.NewReader(body)).Perform(ctx)
	if err != nil {
		return ExportPage{}, fmt.Errorf("reading the records of %s: %w", alias, es.Classify(err))
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		return ExportPage{}, fmt.Errorf("reading the records of %s: status %d: %w", alias, res.StatusCode, es.ErrUnavailable)
	}
	var out struct {
		Hits struct {
			Hits []exportHit `json:"hits"`
		} `json:"hits"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return ExportPage{}, fmt.Errorf("decoding the records of %s: %w", alias, err)
	}
	return exportPage(out.Hits.Hits[:min(len(out.Hits.Hits), limit)], len(out.Hits.Hits) > limit)
}

// exportHit is a hit of an export page's search.
type exportHit struct {
	Source json.RawMessage `json:"_source"`
}

// exportPage is the page of hits, with a cursor after its last record when more follow.
func exportPage(hits []exportHit, more bool) (ExportPage, error) {
	page := ExportPage{Records: make([]json.RawMessage, len(hits))}
	var last string
	for i, h := range hits {
		fields, _, err := storedFields(h.Source)
		if err != nil {
			return ExportPage{}, err
		}
		if page.Records[i], err = EncodeRecord(fields); err != nil {
			return ExportPage{}, err
		}
		_ = json.Unmarshal(fields[indexmapping.ObjectIDField], &last)
	}
	if more {
		c := base64.RawURLEncoding.EncodeToString([]byte(last))
		page.Cursor = &c
	}
	return page, nil
}
