// Package analyze implements Elasticsearch's _analyze API: the tokens an analyzer, a
// field's analyzer or a chain given in the request makes of some text, and with explain
// the tokens after each step.
package analyze

import (
	"fmt"
	"maps"
	"slices"

	"github.com/aislehq/aisle/internal/engine/esanalysis"
	"github.com/aislehq/aisle/internal/engine/eserr"
)

// Request is a parsed _analyze body.
type Request struct {
	Text        []string
	Analyzer    string
	Field       string
	Tokenizer   any
	Filters     []any
	CharFilters []any
	Explain     bool
	// Attributes, when set, limits explain's token attributes to these.
	Attributes []string
}

// Parse reads an _analyze body as ES's parser does: unknown keys are refused.
func Parse(body map[string]any) (*Request, error) {
	r := &Request{}
	for _, k := range slices.Sorted(maps.Keys(body)) {
		v := body[k]
		var err error
		switch k {
		case "text":
			r.Text, err = stringList(k, v)
		case "analyzer":
			r.Analyzer, err = str(k, v)
		case "field":
			r.Field, err = str(k, v)
		case "tokenizer":
			r.Tokenizer = v
		case "filter":
			r.Filters, err = objects(k, v)
		case "char_filter":
			r.CharFilters, err = objects(k, v)
		case "explain":
			r.Explain = esanalysis.Bool(v)
		case "attributes":
			r.Attributes, err = stringList(k, v)
		case "normalizer":
			return nil, eserr.IllegalArgument("normalizers are not supported by this engine")
		default:
			return nil, eserr.XContentParse("[1:2] [analyze_request] unknown field [%s]", k)
		}
		if err != nil {
			return nil, err
		}
	}
	return r, r.validate()
}

// validate applies ES's request validation (AnalyzeAction.Request#validate).
func (r *Request) validate() error {
	var problems []string
	if len(r.Text) == 0 {
		problems = append(problems, "text is missing")
	}
	extra := r.Tokenizer != nil || len(r.Filters) > 0 || len(r.CharFilters) > 0
	if r.Analyzer != "" && extra {
		problems = append(problems, "cannot define extra components on a named analyzer")
	}
	if r.Field != "" && extra {
		problems = append(problems, "cannot define extra components on a field-specific analyzer")
	}
	if len(problems) == 0 {
		if len(r.CharFilters) > 0 {
			return eserr.IllegalArgument("char_filter is not supported by this engine")
		}
		return nil
	}
	reason := "Validation Failed: "
	for i, p := range problems {
		reason += fmt.Sprintf("%d: %s;", i+1, p)
	}
	return eserr.New(400, "action_request_validation_exception", "%s", reason)
}

func str(key string, v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", eserr.XContentParse("[1:2] [analyze_request] failed to parse field [%s]", key)
	}
	return s, nil
}

func stringList(key string, v any) ([]string, error) {
	list, err := esanalysis.Strings(v)
	if err != nil {
		return nil, eserr.XContentParse("[1:2] [analyze_request] failed to parse field [%s]", key)
	}
	return list, nil
}

// objects reads a list of names or inline definitions; one name alone is a list of one.
func objects(key string, v any) ([]any, error) {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			switch e.(type) {
			case string, map[string]any:
			default:
				return nil, eserr.XContentParse("[1:2] [analyze_request] failed to parse field [%s]", key)
			}
		}
		return x, nil
	case string, map[string]any:
		return []any{x}, nil
	}
	return nil, eserr.XContentParse("[1:2] [analyze_request] failed to parse field [%s]", key)
}
