// Package aggs computes Elasticsearch aggregations (terms, filter, date_histogram,
// cardinality, min, max, sum) with ES's response shapes and ordering. The per-document work is
// done from per-segment columns on a single index (see columnar.go) and by bleve's
// doc-value facets across several indices.
package aggs

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/aislehq/aisle/internal/engine/dsl"
	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
)

// Agg is one parsed aggregation.
type Agg struct {
	Name        string
	Type        string
	Field       string
	Leaf        *mapper.Leaf
	Size        int
	Order       []OrderKey
	MinDocCount int
	Missing     any
	Filter      bq.Query
	Pred        *dsl.Pred // Filter as a column predicate, when it is one
	Calendar    string
	Fixed       time.Duration
	Format      string
	BoundsMin   *int64
	BoundsMax   *int64
	Meta        map[string]any // echoed in the response, as ES does
	Include     *termFilter
	Exclude     *termFilter
	Subs        []*Agg
	X           *Extra // the options of the kinds of kinds.go
	// Sig is what a significant_terms aggregation adds to a terms one.
	Sig *significance
}

// OrderKey is one terms ordering criterion.
type OrderKey struct {
	Key  string // _count, _key or a sub-aggregation path
	Desc bool
	sub  *subOrder
}

// Parse reads an "aggs" object.
func Parse(raw map[string]any, c *dsl.Context) ([]*Agg, error) {
	names := make([]string, 0, len(raw))
	for n := range raw {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]*Agg, 0, len(raw))
	for _, name := range names {
		a, err := parseOne(name, raw[name], c)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

func parseOne(name string, v any, c *dsl.Context) (*Agg, error) {
	body, ok := v.(map[string]any)
	if !ok {
		return nil, eserr.Parsing("Expected [START_OBJECT] under [%s], but got a [%T] in [%s]", name, v, name)
	}
	a := &Agg{Name: name}
	for k, val := range body {
		switch k {
		case "aggs", "aggregations":
			sub, ok := val.(map[string]any)
			if !ok {
				return nil, eserr.Parsing("Expected [START_OBJECT] under [%s]", k)
			}
			subs, err := Parse(sub, c)
			if err != nil {
				return nil, err
			}
			a.Subs = subs
		case "meta":
			meta, ok := val.(map[string]any)
			if !ok {
				return nil, eserr.Parsing("Expected [START_OBJECT] under [meta], but got a [%T] in [%s]", val, name)
			}
			a.Meta = meta
		default:
			if a.Type != "" {
				return nil, eserr.Parsing("Found two aggregation type definitions in [%s]: [%s] and [%s]", name, a.Type, k)
			}
			a.Type = k
			if err := a.parseBody(k, val, c); err != nil {
				return nil, err
			}
		}
	}
	if a.Type == "" {
		return nil, eserr.Parsing("Missing definition for aggregation [%s]", name)
	}
	if err := a.resolveOrder(); err != nil {
		return nil, err
	}
	return a, nil
}

func (a *Agg) parseBody(typ string, val any, c *dsl.Context) error {
	if k := kinds[typ]; k != nil && k.params == nil {
		return k.parseRaw(a, val, c)
	}
	if typ == "filter" {
		q, err := dsl.ParseValue(val, c)
		if err != nil {
			return err
		}
		a.Filter, a.Pred = q, dsl.PredicateOf(q, c)
		return nil
	}
	body, ok := val.(map[string]any)
	if !ok {
		return eserr.Parsing("Expected [START_OBJECT] under [%s], but got a [%s] in [%s]", typ, fmt.Sprint(val), a.Name)
	}
	if typ == "significant_terms" {
		return a.parseSignificant(body, c)
	}
	allowed := map[string][]string{
		"terms":          {"field", "size", "order", "min_doc_count", "missing", "shard_size", "show_term_doc_count_error", "execution_hint", "collect_mode", "format", "include", "exclude"},
		"cardinality":    {"field", "precision_threshold", "missing"},
		"min":            {"field", "format", "missing"},
		"max":            {"field", "format", "missing"},
		"sum":            {"field", "format", "missing"},
		"date_histogram": {"field", "calendar_interval", "fixed_interval", "format", "min_doc_count", "extended_bounds", "time_zone", "keyed", "order", "missing", "offset"},
	}[typ]
	if k := kinds[typ]; allowed == nil && k != nil {
		allowed = k.params
	}
	if allowed == nil {
		return eserr.New(400, "x_content_parse_exception", "[1:1] unknown aggregation type [%s]", typ).
			With("caused_by", map[string]any{"type": "named_object_not_found_exception", "reason": "[1:1] unknown field [" + typ + "]"})
	}
	for k := range body {
		if !contains(allowed, k) {
			return eserr.Parsing("[%s] unknown field [%s]", typ, k).With("line", 1).With("col", 1)
		}
	}
	field, _ := body["field"].(string)
	if field == "" {
		return eserr.IllegalArgument("Required [field] for aggregation [%s]", a.Name)
	}
	a.Field, a.Leaf = field, fielddataLeaf(c.Leaf(field))
	a.Format, _ = body["format"].(string)
	a.Missing = body["missing"]
	if a.Missing != nil && typ == "date_histogram" {
		return eserr.IllegalArgument("[missing] is not supported by this engine for [%s]", typ)
	}
	switch typ {
	case "terms":
		return a.parseTerms(body)
	case "date_histogram":
		return a.parseHistogram(body)
	case "cardinality", "min", "max", "sum":
		if tz, ok := body["time_zone"]; ok {
			return eserr.IllegalArgument("[time_zone] %v is not supported", tz)
		}
	}
	if k := kinds[typ]; k != nil && k.parse != nil {
		return k.parse(a, body)
	}
	return nil
}

// fielddataLeaf is the leaf aggregations read: a text field with fielddata is counted by
// its terms, as a keyword is.
func fielddataLeaf(l *mapper.Leaf) *mapper.Leaf {
	if l == nil || !l.Fielddata {
		return l
	}
	kw := *l
	kw.Type, kw.DocValues = "keyword", true
	return &kw
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func toInt(v any) (int, error) {
	switch x := v.(type) {
	case json.Number:
		return strconv.Atoi(x.String())
	case float64:
		return int(x), nil
	case string:
		return strconv.Atoi(x)
	}
	return 0, fmt.Errorf("not an integer")
}

func (a *Agg) parseTerms(body map[string]any) error {
	a.Size, a.MinDocCount = 10, 1
	if v, ok := body["size"]; ok {
		n, err := toInt(v)
		if err != nil || n < 1 {
			return eserr.IllegalArgument("[size] must be greater than 0. Found [%v] in [%s]", v, a.Name)
		}
		a.Size = n
	}
	if v, ok := body["min_doc_count"]; ok {
		n, err := toInt(v)
		if err != nil || n < 0 {
			return eserr.IllegalArgument("[min_doc_count] must be greater than or equal to 0. Found [%v] in [%s]", v, a.Name)
		}
		if n == 0 {
			return eserr.IllegalArgument("[min_doc_count] of 0 is not supported by this engine for terms aggregation [%s]", a.Name)
		}
		a.MinDocCount = n
	}
	if err := a.parseIncludeExclude(body); err != nil {
		return err
	}
	if v, ok := body["order"]; ok {
		keys, err := parseOrder(v, a.Name)
		if err != nil {
			return err
		}
		a.Order = keys
	}
	if len(a.Order) == 0 {
		a.Order = []OrderKey{{Key: "_count", Desc: true}}
	}
	last := a.Order[len(a.Order)-1].Key
	if last != "_key" {
		// ES breaks ties of _count order by key ascending.
		a.Order = append(a.Order, OrderKey{Key: "_key"})
	}
	return nil
}

func parseOrder(v any, name string) ([]OrderKey, error) {
	var out []OrderKey
	items, ok := v.([]any)
	if !ok {
		items = []any{v}
	}
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			return nil, eserr.Parsing("[order] must be an object or an array of objects in [%s]", name)
		}
		for k, dir := range m {
			d, _ := dir.(string)
			if d != "asc" && d != "desc" {
				return nil, eserr.Parsing("Unknown terms order direction [%v] in terms aggregation [%s]", dir, name)
			}
			key := k
			if key == "_term" {
				key = "_key"
			}
			out = append(out, OrderKey{Key: key, Desc: d == "desc"})
		}
	}
	return out, nil
}

var calendarUnits = map[string]string{
	"minute": "m", "1m": "m", "hour": "h", "1h": "h", "day": "d", "1d": "d", "week": "w", "1w": "w",
	"month": "M", "1M": "M", "quarter": "q", "1q": "q", "year": "y", "1y": "y",
}

func (a *Agg) parseHistogram(body map[string]any) error {
	cal, hasCal := body["calendar_interval"].(string)
	fixed, hasFixed := body["fixed_interval"].(string)
	switch {
	case hasCal && hasFixed:
		return eserr.IllegalArgument("Cannot use [fixed_interval] with [calendar_interval] configuration option.")
	case hasCal:
		u, ok := calendarUnits[cal]
		if !ok {
			return eserr.IllegalArgument("The supplied interval [%s] could not be parsed as a calendar interval.", cal)
		}
		a.Calendar = u
	case hasFixed:
		d, err := parseFixed(fixed)
		if err != nil {
			return eserr.IllegalArgument("failed to parse setting [date_histogram.fixedInterval] with value [%s] as a time value: unit is missing or unrecognized", fixed)
		}
		a.Fixed = d
	default:
		return eserr.IllegalArgument("Invalid interval specified, must be non-null and non-empty")
	}
	if tz, ok := body["time_zone"].(string); ok && tz != "UTC" && tz != "Z" && tz != "+00:00" {
		return eserr.IllegalArgument("[date_histogram] time_zone [%s] is not supported by this engine", tz)
	}
	if _, ok := body["order"]; ok {
		return eserr.IllegalArgument("[date_histogram] order is not supported by this engine")
	}
	if err := a.parseDateOffset(body["offset"]); err != nil {
		return err
	}
	if k, _ := body["keyed"].(bool); k {
		return eserr.IllegalArgument("[date_histogram] keyed is not supported by this engine")
	}
	if v, ok := body["min_doc_count"]; ok {
		n, err := toInt(v)
		if err != nil || n < 0 {
			return eserr.IllegalArgument("[min_doc_count] must be greater than or equal to 0. Found [%v] in [%s]", v, a.Name)
		}
		a.MinDocCount = n
	}
	if eb, ok := body["extended_bounds"].(map[string]any); ok {
		for k, v := range eb {
			t, err := mapper.ParseDate(dateIn(v), a.Format)
			if err != nil {
				return eserr.New(400, "parse_exception", "failed to parse date field [%v]", v)
			}
			ms := t.UnixMilli()
			if k == "min" {
				a.BoundsMin = &ms
			} else if k == "max" {
				a.BoundsMax = &ms
			}
		}
	}
	return nil
}

func dateIn(v any) any {
	if n, ok := v.(json.Number); ok {
		f, _ := n.Float64()
		return f
	}
	return v
}

func parseFixed(s string) (time.Duration, error) {
	for _, u := range []struct {
		suf string
		d   time.Duration
	}{{"ms", time.Millisecond}, {"s", time.Second}, {"m", time.Minute}, {"h", time.Hour}, {"d", 24 * time.Hour}} {
		if strings.HasSuffix(s, u.suf) {
			n, err := strconv.Atoi(strings.TrimSuffix(s, u.suf))
			if err != nil || n <= 0 {
				return 0, fmt.Errorf("bad interval")
			}
			return time.Duration(n) * u.d, nil
		}
	}
	return 0, fmt.Errorf("bad interval")
}
