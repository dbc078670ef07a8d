package searcher

import (
	"encoding/json"
	"math"
	"strconv"
	"time"

	bsearch "github.com/blevesearch/bleve/v2/search"

	"github.com/aislehq/aisle/internal/engine/dsl"
	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
)

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
