package recommend

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/aislehq/aisle/internal/esread"
	"github.com/aislehq/aisle/internal/indexmapping"
	"github.com/aislehq/aisle/internal/searchquery"
)

type obj = map[string]any

// MaxCategoryProducts bounds the products read of one facet value (a category) for goes
// with's fallback and for trending in a category: categories larger than this are read
// in part (their first products in index order).
const MaxCategoryProducts = 10_000

// catalogView is what a list reads of the catalog for one request: the schema, the
// request's filters as queries, and the fields a hit shows.
type catalogView struct {
	alias   string
	schema  searchquery.Schema
	filters []any
	source  obj
}

// view validates the request's filters against the index's schema and rules.
func (s *Service) view(ctx context.Context, req Request) (catalogView, error) {
	alias := req.Index.Alias()
	schema, err := s.schemas.Schema(ctx, alias)
	if err != nil {
		return catalogView{}, err
	}
	filters, err := searchquery.Filters(req.Filter, req.Access, schema)
	if err != nil {
		return catalogView{}, badSearchParameter(err)
	}
	return catalogView{alias: alias, schema: schema, filters: filters, source: sourceFilter(req.Access)}, nil
}

// sourceFilter leaves out the catalog's version field and vectors and, for browsers,
// all but the retrievable fields.
func sourceFilter(r searchquery.Access) obj {
	src := obj{"excludes": searchquery.Hidden(r)}
	if fields := r.Retrievable(); fields != nil {
		src["includes"] = append([]string{indexmapping.ObjectIDField}, fields...)
	}
	return src
}

// product validates the request's filters and reads the record of the product whose
// list it is; found is false when the catalog does not hold it.
func (s *Service) product(ctx context.Context, req Request) (catalogView, map[string]any, bool, error) {
	v, err := s.view(ctx, req)
	if err != nil {
		return catalogView{}, nil, false, err
	}
	rec, found, err := s.record(ctx, v.alias, req.ObjectID)
	return v, rec, found, err
}

// record reads the whole record of id; found is false when the catalog does not hold it.
func (s *Service) record(ctx context.Context, alias, id string) (map[string]any, bool, error) {
	records, err := esread.Records(ctx, s.es, alias, []string{id}, nil)
	if err != nil {
		return nil, false, err
	}
	raw, ok := records[id]
	if !ok {
		return nil, false, nil
	}
	var rec map[string]any
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, false, fmt.Errorf("decoding record %s: %w", id, err)
	}
	return rec, true, nil
}

// keep returns the hits of the candidates the catalog holds and the filters keep, in the
// candidates' order, at most limit; mustNot leaves out more (the product's own values).
func (s *Service) keep(ctx context.Context, v catalogView, cands []scored, mustNot []any, reason string, limit int) ([]Hit, error) {
	if len(cands) == 0 || limit <= 0 {
		return nil, nil
	}
	records, err := s.recordsOf(ctx, v.alias, idsOf(cands), v.source, v.filters, mustNot)
	if err != nil {
		return nil, err
	}
	var out []Hit
	for _, c := range cands {
		if r, ok := records[c.id]; ok && len(out) < limit {
			out = append(out, Hit{ObjectID: c.id, Record: r, Score: c.score, Reason: reason})
		}
	}
	return out, nil
}

// recordsOf searches the records of ids that match filter and none of mustNot, with
// the fields of source, by ID.
func (s *Service) recordsOf(ctx context.Context, alias string, ids []string, source obj, filter, mustNot []any) (map[string]json.RawMessage, error) {
	body := obj{"size": len(ids), "_source": source, "track_total_hits": false,
		"query": boolQuery(append([]any{obj{"ids": obj{"values": ids}}}, filter...), mustNot)}
	raw, err := esread.Search(ctx, s.es, alias, body)
	if err != nil {
		return nil, err
	}
	return hitRecords(raw)
}

func idsOf(cands []scored) []string {
	ids := make([]string, len(cands))
	for i, c := range cands {
		ids[i] = c.id
	}
	return ids
}

// searchAnswer is the part of a search answer the lists read.
type searchAnswer struct {
	Hits struct {
		Hits []struct {
			ID     string          `json:"_id"`
			Score  *float64        `json:"_score"`
			Source json.RawMessage `json:"_source"`
		} `json:"hits"`
	} `json:"hits"`
}

// hitRecords reads an answer's hits as records by ID.
func hitRecords(raw []byte) (map[string]json.RawMessage, error) {
	var ans searchAnswer
	if err := json.Unmarshal(raw, &ans); err != nil {
		return nil, fmt.Errorf("decoding catalog hits: %w", err)
	}
	out := make(map[string]json.RawMessage, len(ans.Hits.Hits))
	for _, h := range ans.Hits.Hits {
		out[h.ID] = h.Source
	}
	return out, nil
}

// idsOf lists the IDs of the catalog's products matching query, at most
// MaxCategoryProducts.
func (s *Service) idsOf(ctx context.Context, alias string, query any) ([]string, error) {
	body := obj{"size": MaxCategoryProducts, "_source": false, "track_total_hits": false, "query": query}
	raw, err := esread.Search(ctx, s.es, alias, body)
	if err != nil {
		return nil, err
	}
	var ans searchAnswer
	if err := json.Unmarshal(raw, &ans); err != nil {
		return nil, fmt.Errorf("decoding catalog hits: %w", err)
	}
	ids := make([]string, len(ans.Hits.Hits))
	for i, h := range ans.Hits.Hits {
		ids[i] = h.ID
	}
	return ids, nil
}

// boolQuery is a bool query of filter and must_not clauses, either list may be empty.
func boolQuery(filter, mustNot []any) obj {
	b := obj{}
	if len(filter) > 0 {
		b["filter"] = filter
	}
	if len(mustNot) > 0 {
		b["must_not"] = mustNot
	}
	return obj{"bool": b}
}

// valuesQuery selects the products holding one of values in the facet path; nil when
// there are no values.
func valuesQuery(schema searchquery.Schema, path string, values []any) any {
	if path == "" || len(values) == 0 {
		return nil
	}
	return obj{"terms": obj{schema.ExactField(path): values}}
}
