package recommend

import (
	"errors"
	"testing"
)

// FuzzParseParams: any query string values are read or refused with ErrBadParameter;
// nothing panics, and what is read keeps its bounds.
func FuzzParseParams(f *testing.F) {
	f.Add("10", `{"field": "brand", "in": ["a", 1]}`, "category", "tvs", true)
	f.Add("", "", "", "", false)
	f.Add("+5", `{"and": [{"not": {"field": "a", "exists": true}}]}`, "", "", false)
	f.Add("99999999999999999999", "{", "x", "", true)
	f.Add("1", `{"field": "a", "range": {"gte": "2024-01-01"}}`, "a", "\xff", true)
	f.Fuzz(func(t *testing.T, limit, filters, field, value string, trending bool) {
		p, err := ParseParams(Query{Limit: limit, Filters: filters, Field: field, Value: value}, trending)
		if err != nil {
			if !errors.Is(err, ErrBadParameter) {
				t.Fatalf("not a parameter error: %v", err)
			}
			return
		}
		if p.Limit < 1 || p.Limit > MaxLimit || len(p.Value) > MaxValueLength || (p.Field == "") != (p.Value == "") {
			t.Fatalf("out of bounds: %+v", p)
		}
	})
}

// FuzzParseList: a list name is similar, goesWith, or refused.
func FuzzParseList(f *testing.F) {
	for _, s := range []string{"similar", "goesWith", "together", "trending", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		err := ParseList(name)
		if (err == nil) != (name == Similar || name == GoesWith) {
			t.Fatalf("ParseList(%q) = %v", name, err)
		}
	})
}
