package dsl

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
)

func dateInput(v any) any {
	if n, ok := v.(json.Number); ok {
		f, _ := n.Float64()
		return f
	}
	return v
}

func parseTerm(c *Context, body any) (bq.Query, error) {
	field, val, opts, err := fieldBody("term", body)
	if err != nil {
		return nil, err
	}
	if val == nil {
		if err := checkKeys("term", opts, "value", "case_insensitive"); err != nil {
			return nil, err
		}
		if ci, _ := opts["case_insensitive"].(bool); ci {
			return nil, eserr.IllegalArgument("[term] case_insensitive is not supported by this engine")
		}
		val = opts["value"]
	}
	if val == nil {
		return nil, eserr.IllegalArgument("value cannot be null")
	}
	if _, isObj := val.(map[string]any); isObj {
		return nil, eserr.Parsing("[term] query does not support array of values")
	}
	if _, isArr := val.([]any); isArr {
		return nil, eserr.Parsing("[term] query does not support array of values")
	}
	q, err := c.termValue(field, val)
	if err != nil {
		return nil, err
	}
	return applyBoost(q, opts)
}

// termValue is an unanalysed match: on text fields the value must equal an indexed token.
func (c *Context) termValue(field string, val any) (bq.Query, error) {
	if field == "_id" {
		return bleve.NewDocIDQuery([]string{fmt.Sprint(val)}), nil
	}
	leaf := c.Leaf(field)
	if leaf == nil {
		return bleve.NewMatchNoneQuery(), nil
	}
	if leaf.Type == "text" || leaf.Type == "keyword" {
		return newTermQuery(field, fmt.Sprint(val), leaf.Type == "text"), nil
	}
	return c.exactValue(leaf, val)
}

func parseTerms(c *Context, body any) (bq.Query, error) {
	m, err := asObject("terms", body)
	if err != nil {
		return nil, err
	}
	var field string
	var vals []any
	n := 0
	for k, v := range m {
		if k == "boost" || k == "_name" {
			continue
		}
		arr, ok := v.([]any)
		if !ok {
			lookup, isObj := v.(map[string]any)
			if !isObj {
				return nil, eserr.Parsing("[terms] query does not support [%s]", k)
			}
			looked, err := lookupTerms(c, lookup)
			if err != nil {
				return nil, err
			}
			arr = looked
		}
		field, vals = k, arr
		n++
	}
	if n != 1 {
		return nil, eserr.Parsing("[terms] query does not support multiple fields")
	}
	if c.MaxTerms > 0 && len(vals) > c.MaxTerms {
		return nil, eserr.IllegalArgument("The number of terms [%d] used in the Terms Query request has exceeded the allowed maximum of [%d]. This maximum can be set by changing the [index.max_terms_count] index level setting.", len(vals), c.MaxTerms)
	}
	if field == "_id" {
		ids := make([]string, len(vals))
		for i, v := range vals {
			ids[i] = fmt.Sprint(v)
		}
		return applyBoost(bleve.NewDocIDQuery(ids), m)
	}
	qs := make([]bq.Query, 0, len(vals))
	for _, v := range vals {
		if v == nil {
			continue
		}
		q, err := c.termValue(field, v)
		if err != nil {
			return nil, err
		}
		qs = append(qs, q)
	}
	if len(qs) == 0 {
		return bleve.NewMatchNoneQuery(), nil
	}
	return applyBoost(bleve.NewDisjunctionQuery(qs...), m)
}

func parseRange(c *Context, body any) (bq.Query, error) {
	field, val, opts, err := fieldBody("range", body)
	if err != nil {
		return nil, err
	}
	if val != nil {
		return nil, eserr.Parsing("[range] query malformed, no start_object after query name")
	}
	if err := checkKeys("range", opts, "gt", "gte", "lt", "lte", "from", "to", "include_lower", "include_upper", "format", "time_zone", "relation"); err != nil {
		return nil, err
	}
	if tz, ok := opts["time_zone"].(string); ok && tz != "Z" && tz != "UTC" && tz != "+00:00" {
		return nil, eserr.IllegalArgument("[range] time_zone [%s] is not supported by this engine", tz)
	}
	var lo, hi any
	loIncl, hiIncl := true, true
	if v, ok := opts["from"]; ok {
		lo = v
	}
	if v, ok := opts["to"]; ok {
		hi = v
	}
	if b, ok := opts["include_lower"].(bool); ok {
		loIncl = b
	}
	if b, ok := opts["include_upper"].(bool); ok {
		hiIncl = b
	}
	if v, ok := opts["gt"]; ok {
		lo, loIncl = v, false
	}
	if v, ok := opts["gte"]; ok {
		lo, loIncl = v, true
	}
	if v, ok := opts["lt"]; ok {
		hi, hiIncl = v, false
	}
	if v, ok := opts["lte"]; ok {
		hi, hiIncl = v, true
	}
	leaf := c.Leaf(field)
	if leaf == nil {
		return bleve.NewMatchNoneQuery(), nil
	}
	format, _ := opts["format"].(string)
	q, err := c.rangeFor(leaf, lo, hi, loIncl, hiIncl, format)
	if err != nil {
		return nil, err
	}
	return applyBoost(q, opts)
}

func (c *Context) rangeFor(leaf *mapper.Leaf, lo, hi any, loIncl, hiIncl bool, format string) (bq.Query, error) {
	switch {
	case mapper.Numeric(leaf.Type):
		return c.numericRange(leaf, lo, hi, loIncl, hiIncl)
	case leaf.Type == "date":
		if format == "" {
			format = leaf.Format
		}
		return c.dateRange(leaf, lo, hi, loIncl, hiIncl, format)
	case leaf.Type == "text" || leaf.Type == "keyword":
		ls, hs := "", ""
		if lo != nil {
			ls = fmt.Sprint(lo)
		}
		if hi != nil {
			hs = fmt.Sprint(hi)
		}
		q := bleve.NewTermRangeInclusiveQuery(ls, hs, &loIncl, &hiIncl)
		q.SetField(leaf.Path)
		return q, nil
	}
	return nil, c.shardErr("Field [%s] of type [%s] does not support range queries", leaf.Path, leaf.Type)
}

// numericRange is a range over a numeric field; a nil bound is open.
func (c *Context) numericRange(leaf *mapper.Leaf, lo, hi any, loIncl, hiIncl bool) (bq.Query, error) {
	bound := func(v any) (*float64, error) {
		if v == nil {
			return nil, nil
		}
		f, err := mapper.ToNumber(v, "double")
		if err != nil {
			return nil, c.shardErr("failed to create query: %s", err.Error())
		}
		return &f, nil
	}
	lp, err := bound(lo)
	if err != nil {
		return nil, err
	}
	hp, err := bound(hi)
	if err != nil {
		return nil, err
	}
	q := NewNumericRange(lp, hp, &loIncl, &hiIncl)
	q.SetField(leaf.Path)
	return q, nil
}

// dateRange is a range over a date field, its bounds in date math; an inclusive upper
// bound rounds up, as in ES.
func (c *Context) dateRange(leaf *mapper.Leaf, lo, hi any, loIncl, hiIncl bool, format string) (bq.Query, error) {
	bound := func(v any, roundUp bool) (time.Time, error) {
		if v == nil {
			return time.Time{}, nil
		}
		t, err := DateMath(dateInput(v), format, roundUp, time.Now())
		if err != nil {
			return time.Time{}, c.shardErr("failed to create query: %s", err.Error())
		}
		return t, nil
	}
	lt, err := bound(lo, false)
	if err != nil {
		return nil, err
	}
	ht, err := bound(hi, hiIncl)
	if err != nil {
		return nil, err
	}
	q := NewDateRange(lt, ht, &loIncl, &hiIncl)
	q.SetField(leaf.Path)
	return q, nil
}

// DateMath parses ES date math: "now-1d/d", "2020-01-01||+1M", or a plain date. Rounding
// up (for lte/lt upper bounds) moves to the end of the unit, as ES does.
func DateMath(v any, format string, roundUp bool, now time.Time) (time.Time, error) {
	s, ok := v.(string)
	if !ok {
		return mapper.ParseDate(v, format)
	}
	var anchor time.Time
	var expr string
	switch {
	case strings.HasPrefix(s, "now"):
		anchor, expr = now.UTC(), s[3:]
	case strings.Contains(s, "||"):
		base, rest, _ := strings.Cut(s, "||")
		t, err := mapper.ParseDate(base, format)
		if err != nil {
			return t, err
		}
		anchor, expr = t, rest
	default:
		return mapper.ParseDate(s, format)
	}
	t := anchor
	for len(expr) > 0 {
		op := expr[0]
		expr = expr[1:]
		if op == '/' {
			if len(expr) == 0 {
				return t, fmt.Errorf("truncated date math [%s]", s)
			}
			t = roundDate(t, expr[0], roundUp)
			expr = expr[1:]
			continue
		}
		if op != '+' && op != '-' {
			return t, fmt.Errorf("operator not supported for date math [%s]", s)
		}
		i := 0
		for i < len(expr) && expr[i] >= '0' && expr[i] <= '9' {
			i++
		}
		n := 1
		if i > 0 {
			n, _ = strconv.Atoi(expr[:i])
		}
		if i >= len(expr) {
			return t, fmt.Errorf("truncated date math [%s]", s)
		}
		if op == '-' {
			n = -n
		}
		t = addUnit(t, expr[i], n)
		expr = expr[i+1:]
	}
	return t, nil
}

func addUnit(t time.Time, u byte, n int) time.Time {
	switch u {
	case 'y':
		return t.AddDate(n, 0, 0)
	case 'M':
		return t.AddDate(0, n, 0)
	case 'w':
		return t.AddDate(0, 0, 7*n)
	case 'd':
		return t.AddDate(0, 0, n)
	case 'h', 'H':
		return t.Add(time.Duration(n) * time.Hour)
	case 'm':
		return t.Add(time.Duration(n) * time.Minute)
	case 's':
		return t.Add(time.Duration(n) * time.Second)
	}
	return t
}

func roundDate(t time.Time, u byte, up bool) time.Time {
	var r time.Time
	switch u {
	case 'y':
		r = time.Date(t.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
	case 'M':
		r = time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	case 'w':
		d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
		r = d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
	case 'd':
		r = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	case 'h', 'H':
		r = t.Truncate(time.Hour)
	case 'm':
		r = t.Truncate(time.Minute)
	case 's':
		r = t.Truncate(time.Second)
	default:
		return t
	}
	if up {
		return addUnit(r, u, 1).Add(-time.Millisecond)
	}
	return r
}

func parsePrefix(c *Context, body any) (bq.Query, error) {
	field, val, opts, err := fieldBody("prefix", body)
	if err != nil {
		return nil, err
	}
	if val == nil {
		if err := checkKeys("prefix", opts, "value", "rewrite", "case_insensitive"); err != nil {
			return nil, err
		}
		if ci, _ := opts["case_insensitive"].(bool); ci {
			return nil, eserr.IllegalArgument("[prefix] case_insensitive is not supported by this engine")
		}
		val = opts["value"]
	}
	leaf := c.Leaf(field)
	if leaf == nil {
		return bleve.NewMatchNoneQuery(), nil
	}
	if leaf.Type != "text" && leaf.Type != "keyword" {
		return nil, c.shardErr("Can only use prefix queries on keyword and text fields - not on [%s] which is of type [%s]", field, leaf.Type)
	}
	return applyBoost(prefixQuery(field, fmt.Sprint(val)), opts)
}
