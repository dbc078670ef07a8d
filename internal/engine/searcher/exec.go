package searcher

import (
	"encoding/json"
	"math"
	"strconv"
	"time"

	"github.com/blevesearch/bleve/v2"
	bsearch "github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/aislehq/aisle/internal/engine/dsl"
	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
	"github.com/aislehq/aisle/internal/engine/store"
)

// Options are URL-level switches that change the response shape.
type Options struct {
	TypedKeys          bool
	RestTotalHitsAsInt bool
}

// BuildQuery parses the request's query (match_all when absent) for the indices.
func BuildQuery(indices []*store.Index, raw any) (bq.Query, *dsl.Context, error) {
	return buildQuery(indices, raw, 0)
}

// buildQuery is BuildQuery for a search of size hits (a knn query's default k; 0: 10).
func buildQuery(indices []*store.Index, raw any, size int) (bq.Query, *dsl.Context, error) {
	qc := QueryContext(indices)
	qc.Size = size
	if raw == nil {
		return dsl.Top(bleve.NewMatchAllQuery()), qc, nil
	}
	q, err := dsl.ParseValue(raw, qc)
	if err != nil {
		return nil, nil, err
	}
	return dsl.Top(q), qc, nil
}

func maxWindow(indices []*store.Index) int {
	w := math.MaxInt32
	for _, ix := range indices {
		if m := ix.Settings().MaxResultWindow(); m < w {
			w = m
		}
	}
	if len(indices) == 0 {
		return 10000
	}
	return w
}

// scoreJSON renders a score as the float32 it is, as ES does: bleve keeps scores in a
// float64, which would print digits the float never had.
func scoreJSON(score float64) json.Number {
	f := float32(score)
	if a := math.Abs(float64(f)); a != 0 && (a < 1e-6 || a >= 1e21) {
		return json.Number(strconv.FormatFloat(float64(f), 'g', -1, 32))
	}
	return json.Number(strconv.FormatFloat(float64(f), 'f', -1, 32))
}

func shards(n int) map[string]any {
	return map[string]any{"total": n, "successful": n, "skipped": 0, "failed": 0}
}

func emptyResponse(r *Request, o Options) map[string]any {
	hits := map[string]any{"max_score": nil, "hits": []any{}}
	if r.TrackTotal != 0 {
		if o.RestTotalHitsAsInt {
			hits["total"] = 0
		} else {
			hits["total"] = map[string]any{"value": 0, "relation": "eq"}
		}
	}
	return map[string]any{"took": 0, "timed_out": false, "_shards": shards(0), "hits": hits}
}

func hitsObject(res *bleve.SearchResult, hits []any, r *Request, o Options, sorted bool) map[string]any {
	out := map[string]any{"hits": hits}
	if sorted && !r.TrackScores {
		out["max_score"] = nil
	} else if len(res.Hits) == 0 {
		out["max_score"] = nil
	} else {
		out["max_score"] = scoreJSON(res.MaxScore)
	}
	if r.TrackTotal == 0 {
		if o.RestTotalHitsAsInt {
			out["total"] = -1
		}
		return out
	}
	total, rel := res.Total, "eq"
	if r.TrackTotal > 0 && total > uint64(r.TrackTotal) {
		total, rel = uint64(r.TrackTotal), "gte"
	}
	if o.RestTotalHitsAsInt {
		out["total"] = total
	} else {
		out["total"] = map[string]any{"value": total, "relation": rel}
	}
	return out
}

func renderHit(h *bsearch.DocumentMatch, byName map[string]*store.Index, r *Request, sorted bool, types []string, hl *highlighters, n int) (map[string]any, error) {
	ix := byName[h.Index]
	if ix == nil && len(byName) == 1 {
		for _, only := range byName {
			ix = only
		}
	}
	hit := map[string]any{"_index": h.Index, "_id": h.ID}
	if ix != nil {
		hit["_index"] = ix.Name
	}
	if sorted && !r.TrackScores {
		hit["_score"] = nil
	} else {
		hit["_score"] = scoreJSON(h.Score)
	}
	if names := dsl.MatchedQueries(h); len(names) > 0 {
		hit["matched_queries"] = names
	}
	var doc *store.Doc
	if ix != nil {
		var err error
		if doc, err = ix.Get(h.ID); err != nil {
			return nil, err
		}
	}
	if doc != nil {
		if r.Version {
			hit["_version"] = doc.Version
		}
		if r.SeqNoTerm {
			hit["_seq_no"] = doc.SeqNo
			hit["_primary_term"] = doc.Term
		}
		if src := r.Source.Apply(doc.Source); src != nil {
			hit["_source"] = src
		}
		if len(r.Fields) > 0 && ix != nil {
			fields, err := fieldValues(ix.Mapping(), doc.Source, r.Fields)
			if err != nil {
				return nil, err
			}
			if fields != nil {
				hit["fields"] = fields
			}
		}
	}
	if err := hl.add(hit, ix, doc, n); err != nil {
		return nil, err
	}
	if sorted {
		descs := make([]bool, len(r.Sort))
		for i, sp := range r.Sort {
			descs[i] = sp.Desc
		}
		hit["sort"] = decodeSort(h, types, descs)
	}
	return hit, nil
}

// buildSort maps ES sort clauses to bleve's; types records how to render each value.
func buildSort(specs []SortSpec, qc *dsl.Context, index string) (bsearch.SortOrder, []string, error) {
	if len(specs) == 0 {
		return nil, nil, nil
	}
	order := make(bsearch.SortOrder, 0, len(specs))
	types := make([]string, 0, len(specs))
	for _, s := range specs {
		switch s.Field {
		case "_score":
			order = append(order, &bsearch.SortScore{Desc: s.Desc})
			types = append(types, "_score")
			continue
		case "_doc", "_id":
			order = append(order, &bsearch.SortDocID{Desc: s.Desc})
			types = append(types, "keyword")
			continue
		}
		leaf := qc.Leaf(s.Field)
		typ := ""
		if leaf != nil {
			typ = leaf.Type
		} else if s.UnmappedType != "" {
			typ = s.UnmappedType
		} else {
			return nil, nil, eserr.SearchPhase(eserr.New(400, "query_shard_exception", "No mapping found for [%s] in order to sort on", s.Field).With("index", index))
		}
		if mapper.Unqueryable(typ) {
			return nil, nil, eserr.SearchPhase(eserr.IllegalArgument("can't sort on %s field [%s] in this engine", typ, s.Field).With("index", index))
		}
		if typ == "text" {
			return nil, nil, eserr.SearchPhase(eserr.IllegalArgument("Fielddata is disabled on [%s] in [%s]. Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead.", s.Field, index).With("index", index))
		}
		sf := &bsearch.SortField{Field: s.Field, Desc: s.Desc, Missing: bsearch.SortFieldMissingLast}
		if s.Desc {
			// ES's default sort mode: a field of several values sorts by its highest
			// descending (bleve's default takes the lowest either way).
			sf.Mode = bsearch.SortFieldMax
		}
		if s.MissingFirst {
			sf.Missing = bsearch.SortFieldMissingFirst
		}
		switch {
		case mapper.Numeric(typ):
			sf.Type = bsearch.SortFieldAsNumber
		case typ == "date":
			sf.Type = bsearch.SortFieldAsDate
		default:
			sf.Type = bsearch.SortFieldAsString
		}
		order = append(order, sf)
		types = append(types, typ)
	}
	return order, types, nil
}

// missingSortValue is what ES shows for a document without the sort field: the extreme
// of the field's type that sorts last (or first with missing: _first).
func missingSortValue(t string, desc bool) any {
	if !mapper.Numeric(t) && t != "date" {
		return nil
	}
	if mapper.Numeric(t) && !mapper.Integral(t) {
		if desc {
			return -math.MaxFloat64
		}
		return math.MaxFloat64
	}
	max, min := int64(math.MaxInt64), int64(math.MinInt64)
	switch t {
	case "integer":
		max, min = math.MaxInt32, math.MinInt32
	case "short":
		max, min = math.MaxInt16, math.MinInt16
	case "byte":
		max, min = math.MaxInt8, math.MinInt8
	}
	if desc {
		return min
	}
	return max
}

func decodeSort(h *bsearch.DocumentMatch, types []string, descs []bool) []any {
	out := make([]any, len(types))
	for i, t := range types {
		var raw string
		if i < len(h.DecodedSort) {
			raw = h.DecodedSort[i]
		}
		switch {
		case t == "_score":
			out[i] = scoreJSON(h.Score)
		case mapper.Numeric(t):
			f, err := strconv.ParseFloat(raw, 64)
			switch {
			case err != nil:
				out[i] = missingSortValue(t, descs[i])
			case mapper.Integral(t):
				out[i] = int64(f)
			default:
				out[i] = f
			}
		case t == "date":
			tm, err := time.Parse(time.RFC3339Nano, raw)
			if err != nil {
				out[i] = missingSortValue(t, descs[i])
			} else {
				out[i] = tm.UnixMilli()
			}
		case t == "boolean":
			out[i] = map[string]int{"T": 1, "F": 0}[raw]
		default:
			if raw == "" {
				out[i] = nil
			} else {
				out[i] = raw
			}
		}
	}
	return out
}

func encodeAfter(vals []any, types, formats []string) ([]string, error) {
	out := make([]string, len(vals))
	for i, v := range vals {
		t := types[i]
		switch {
		case t == "_score" || mapper.Numeric(t):
			f, err := mapper.ToNumber(v, "double")
			if err != nil {
				return nil, eserr.SearchPhase(eserr.IllegalArgument("Failed to parse search_after value for field [%d]", i))
			}
			out[i] = strconv.FormatFloat(f, 'f', -1, 64)
		case t == "date":
			f := "strict_date_optional_time||epoch_millis"
			if formats[i] != "" {
				f = formats[i] + "||" + f
			}
			tm, err := mapper.ParseDate(dateValue(v), f)
			if err != nil {
				return nil, eserr.SearchPhase(eserr.IllegalArgument("Failed to parse search_after value [%v]", v))
			}
			out[i] = tm.UTC().Format(time.RFC3339Nano)
		case t == "boolean":
			out[i] = map[bool]string{true: "T", false: "F"}[v == true || v == "true" || toStr(v) == "1"]
		default:
			out[i] = toStr(v)
		}
	}
	return out, nil
}

func dateValue(v any) any {
	if n, ok := v.(json.Number); ok {
		f, _ := n.Float64()
		return f
	}
	return v
}

func toStr(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}
