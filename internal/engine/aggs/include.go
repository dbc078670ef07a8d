package aggs

import (
	"fmt"
	"regexp"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
)

// termFilter is a terms aggregation's include/exclude: exact values (an array) or a
// regular expression (a string, string fields only). Partitions are not supported.
type termFilter struct {
	exact map[string]bool
	nums  map[float64]bool
	re    *regexp.Regexp
}

func (a *Agg) parseIncludeExclude(body map[string]any) error {
	var err error
	if v, ok := body["include"]; ok {
		if a.Include, err = a.parseTermFilter("include", v); err != nil {
			return err
		}
	}
	if v, ok := body["exclude"]; ok {
		if a.Exclude, err = a.parseTermFilter("exclude", v); err != nil {
			return err
		}
	}
	return nil
}

func (a *Agg) parseTermFilter(param string, v any) (*termFilter, error) {
	switch x := v.(type) {
	case string:
		re, err := regexp.Compile("^(?:" + x + ")$")
		if err != nil {
			return nil, eserr.IllegalArgument("invalid regular expression [%s] in [%s]: %s", x, param, err.Error())
		}
		return &termFilter{re: re}, nil
	case []any:
		return a.exactFilter(param, x)
	case map[string]any:
		return nil, eserr.IllegalArgument("[%s] partitions are not supported by this engine (aggregation [%s])", param, a.Name)
	}
	return nil, eserr.Parsing("Unknown parameter type for [%s] in [%s]", param, a.Name)
}

// exactFilter keeps the values as the field's keys: strings for keyword fields, numbers
// (dates as epoch millis, booleans as 1/0) otherwise.
func (a *Agg) exactFilter(param string, list []any) (*termFilter, error) {
	f := &termFilter{exact: map[string]bool{}, nums: map[float64]bool{}}
	for _, el := range list {
		if a.Leaf == nil || a.Leaf.Type == "keyword" {
			f.exact[fmt.Sprint(el)] = true
			continue
		}
		n, err := keyNumber(a.Leaf, el)
		if err != nil {
			return nil, eserr.IllegalArgument("failed to parse [%s] value [%v] of aggregation [%s]: %s", param, el, a.Name, err.Error())
		}
		f.nums[n] = true
	}
	return f, nil
}

func keyNumber(l *mapper.Leaf, v any) (float64, error) {
	switch l.Type {
	case "date":
		t, err := mapper.ParseDate(dateIn(v), l.Format)
		if err != nil {
			return 0, err
		}
		return float64(t.UnixMilli()), nil
	case "boolean":
		switch fmt.Sprint(v) {
		case "true", "1":
			return 1, nil
		case "false", "0":
			return 0, nil
		}
		return 0, fmt.Errorf("not a boolean")
	}
	return mapper.ToNumber(v, "double")
}

func (f *termFilter) matches(a *Agg, v value) bool {
	switch {
	case f.re != nil:
		return f.re.MatchString(v.str)
	case a.Leaf.Type == "keyword":
		return f.exact[v.str]
	}
	return f.nums[v.num]
}

// accepts applies include then exclude, as ES's IncludeExclude does.
func (a *Agg) accepts(v value) bool {
	if a.Include != nil && !a.Include.matches(a, v) {
		return false
	}
	return a.Exclude == nil || !a.Exclude.matches(a, v)
}

// checkRegexField is the shard-level check ES makes: regular expressions only filter
// string (keyword) fields; ES fails the shards with a 500 aggregation_execution_exception.
func (a *Agg) checkRegexField(index string) error {
	regex := (a.Include != nil && a.Include.re != nil) || (a.Exclude != nil && a.Exclude.re != nil)
	if !regex || a.Leaf == nil || (a.Leaf.Type == "keyword" && a.Leaf.Mapped != "ip") {
		return nil
	}
	return eserr.SearchPhase(eserr.New(500, "aggregation_execution_exception", "Aggregation [%s] cannot support regular expression style include/exclude settings as they can only be applied to string fields. Use an array of values for include/exclude clauses", a.Name).With("index", index))
}
