package searcher

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/aislehq/aisle/internal/engine/docsort"
	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/highlight"
)

// Request is a parsed _search body merged with URL parameters.
type Request struct {
	Query       any
	From        int
	Size        int
	Sort        []SortSpec
	SearchAfter []any
	Source      *SourceFilter
	// TrackTotal is the count up to which totals are exact; -1 means always, 0 means no
	// total at all (track_total_hits: false).
	TrackTotal  int
	TrackScores bool
	Version     bool
	SeqNoTerm   bool
	Aggs        map[string]any
	Highlight   *highlight.Options
	PostFilter  any       // the post_filter query, as decoded
	Collapse    *Collapse // see collapse.go
	// Knn is the top-level knn option as decoded; ApplyParams folds it into Query.
	Knn any
	// Fields are the `fields` retrieval option's names and patterns (see fields.go).
	Fields []string
	// PIT is the point in time the search reads, nil for the live indices.
	PIT *PITRef
}

// SortSpec is one sort clause.
type SortSpec = docsort.Spec

// tokenName names a JSON value the way ES's parser errors do.
func tokenName(v any) string {
	switch v.(type) {
	case map[string]any:
		return "START_OBJECT"
	case []any:
		return "START_ARRAY"
	case string:
		return "VALUE_STRING"
	case json.Number, float64:
		return "VALUE_NUMBER"
	case bool:
		return "VALUE_BOOLEAN"
	}
	return "VALUE_NULL"
}

// DecodeBody decodes a JSON object body with numbers kept exact.
func DecodeBody(body []byte) (map[string]any, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, eserr.XContentParse("[1:1] failed to parse request body: %s", err.Error())
	}
	if dec.More() {
		return nil, eserr.XContentParse("[1:1] request body has trailing content")
	}
	if m == nil {
		return nil, eserr.Parsing("request body is required")
	}
	return m, nil
}

func intValue(name string, v any) (int, error) {
	switch x := v.(type) {
	case json.Number:
		n, err := strconv.Atoi(x.String())
		if err == nil {
			return n, nil
		}
	case string:
		n, err := strconv.Atoi(x)
		if err == nil {
			return n, nil
		}
	}
	return 0, eserr.Parsing("[%s] failed to parse field, expected a number but got [%s]", name, fmt.Sprint(v))
}

// ParseBody fills a Request from the body; params are applied after (they win, like ES's
// URL parameters for size/from).
func ParseBody(body map[string]any) (*Request, error) {
	r := &Request{Size: 10, TrackTotal: 10000}
	body, err := withRetriever(body)
	if err != nil {
		return nil, err
	}
	if err := collapseConflicts(body); err != nil {
		return nil, err
	}
	for k, v := range body {
		var err error
		switch k {
		case "query":
			r.Query = v
		case "from":
			r.From, err = intValue(k, v)
		case "size":
			r.Size, err = intValue(k, v)
		case "sort":
			r.Sort, err = docsort.Parse(v)
		case "search_after":
			arr, ok := v.([]any)
			if !ok {
				return nil, eserr.Parsing("[search_after] must be an array")
			}
			r.SearchAfter = arr
		case "_source":
			r.Source, err = ParseSourceFilter(v)
		case "track_total_hits":
			r.TrackTotal, err = trackTotal(v)
		case "track_scores":
			r.TrackScores, _ = v.(bool)
		case "version":
			r.Version, _ = v.(bool)
		case "seq_no_primary_term":
			r.SeqNoTerm, _ = v.(bool)
		case "aggs", "aggregations":
			m, ok := v.(map[string]any)
			if !ok {
				return nil, eserr.Parsing("Found two aggregation type definitions in [%s]", k)
			}
			r.Aggs = m
		case "highlight":
			r.Highlight, err = highlight.Parse(v)
		case "post_filter":
			r.PostFilter = v
		case "collapse":
			r.Collapse, err = parseCollapse(v, false)
		case "knn":
			r.Knn = v
		case "fields":
			r.Fields, err = parseFields(v)
		case "pit":
			r.PIT, err = parsePIT(v)
		case "timeout":
		default:
			return nil, eserr.Parsing("Unknown key for a %s in [%s].", tokenName(v), k).With("line", 1).With("col", 1)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := r.bindShardDoc(); err != nil {
		return nil, err
	}
	return r, nil
}

func trackTotal(v any) (int, error) {
	switch x := v.(type) {
	case bool:
		if x {
			return -1, nil
		}
		return 0, nil
	case string:
		if x == "true" {
			return -1, nil
		}
		if x == "false" {
			return 0, nil
		}
	}
	n, err := intValue("track_total_hits", v)
	if err != nil {
		return 0, err
	}
	if n < -1 {
		return 0, eserr.IllegalArgument("[track_total_hits] parameter must be positive or equals to -1, got %d", n)
	}
	if n == -1 {
		return -1, nil
	}
	return n, nil
}

// ApplyParams overlays URL parameters (size, from, sort, _source, track_total_hits...).
func (r *Request) ApplyParams(get func(string) string) error {
	if s := get("size"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return eserr.IllegalArgument("Failed to parse int parameter [size] with value [%s]", s)
		}
		r.Size = n
	}
	if s := get("from"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return eserr.IllegalArgument("Failed to parse int parameter [from] with value [%s]", s)
		}
		r.From = n
	}
	if s := get("sort"); s != "" {
		r.Sort = nil
		for _, part := range strings.Split(s, ",") {
			f, dir, _ := strings.Cut(part, ":")
			r.Sort = append(r.Sort, SortSpec{Field: f, Desc: dir == "desc" || (dir == "" && f == "_score")})
		}
	}
	if f := SourceFromParams(get("_source"), get("_source_includes"), get("_source_excludes")); f != nil {
		r.Source = f
	}
	if s := get("track_total_hits"); s != "" {
		n, err := trackTotal(s)
		if err != nil {
			return err
		}
		r.TrackTotal = n
	}
	if get("track_scores") == "true" {
		r.TrackScores = true
	}
	if get("version") == "true" {
		r.Version = true
	}
	if get("seq_no_primary_term") == "true" {
		r.SeqNoTerm = true
	}
	if q := get("q"); q != "" {
		return eserr.IllegalArgument("request parameter [q] (query_string) is not supported by this engine")
	}
	return r.applyKnn(get("search_type"))
}

// Validate applies ES's window and paging rules.
func (r *Request) Validate(maxWindow int) error {
	if r.From < 0 {
		return eserr.IllegalArgument("[from] parameter cannot be negative")
	}
	if r.Size < 0 {
		return eserr.IllegalArgument("[size] parameter cannot be negative, found [%d]", r.Size)
	}
	if r.From+r.Size > maxWindow {
		return eserr.SearchPhase(eserr.IllegalArgument("Result window is too large, from + size must be less than or equal to: [%d] but was [%d]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.", maxWindow, r.From+r.Size))
	}
	if r.SearchAfter != nil {
		if r.From > 0 {
			return eserr.ActionValidation("[from] parameter must be set to 0 when [search_after] is used")
		}
		if len(r.Sort) == 0 {
			return eserr.SearchPhase(eserr.IllegalArgument("Sort must contain at least one field."))
		}
		if len(r.SearchAfter) != len(r.Sort) {
			return eserr.SearchPhase(eserr.IllegalArgument("search_after has %d value(s) but sort has %d.", len(r.SearchAfter), len(r.Sort)))
		}
	}
	return nil
}
