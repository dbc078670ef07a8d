package searchquery

import "encoding/json"

// The Elasticsearch bodies a plan sends, as typed values: each step of Compile (the
// facets and groups, the rules' arrangement, the merge round) takes a body and returns
// the one it makes, so no step reaches into another's maps. The fields are in the
// order encoding/json writes a map's keys (sorted), so the bytes sent are those of the
// map literals these replace.

// searchBody is the body of a search.
type searchBody struct {
	Source         sourceFilter   `json:"_source"`
	Aggs           map[string]any `json:"aggs,omitempty"`
	Collapse       map[string]any `json:"collapse,omitempty"`
	From           int            `json:"from"`
	Highlight      *highlightBody `json:"highlight,omitempty"`
	PostFilter     any            `json:"post_filter,omitempty"`
	Query          boolBody       `json:"query"`
	Size           int            `json:"size"`
	Sort           []any          `json:"sort"`
	TrackTotalHits bool           `json:"track_total_hits"`
}

// wireBody is a searchBody whose largest parts are marshalled already (wireParts): the
// bodies of a grouped search share them. Its fields are searchBody's, in its order.
type wireBody struct {
	Source         json.RawMessage `json:"_source"`
	Aggs           map[string]any  `json:"aggs,omitempty"`
	Collapse       map[string]any  `json:"collapse,omitempty"`
	From           int             `json:"from"`
	Highlight      json.RawMessage `json:"highlight,omitempty"`
	PostFilter     any             `json:"post_filter,omitempty"`
	Query          json.RawMessage `json:"query"`
	Size           int             `json:"size"`
	Sort           json.RawMessage `json:"sort"`
	TrackTotalHits bool            `json:"track_total_hits"`
}

// wireParts are the parts of a body its grouped search's bodies share, marshalled.
type wireParts struct {
	source, highlight, query, sort json.RawMessage
}

func wirePartsOf(b searchBody) (wireParts, error) {
	var w wireParts
	var err error
	if w.source, err = json.Marshal(b.Source); err != nil {
		return w, err
	}
	if b.Highlight != nil {
		if w.highlight, err = json.Marshal(b.Highlight); err != nil {
			return w, err
		}
	}
	if w.query, err = json.Marshal(b.Query); err != nil {
		return w, err
	}
	w.sort, err = json.Marshal(b.Sort)
	return w, err
}

// body is b with its shared parts marshalled as w holds them.
func (w wireParts) body(b searchBody) wireBody {
	return wireBody{Source: w.source, Aggs: b.Aggs, Collapse: b.Collapse, From: b.From, Highlight: w.highlight,
		PostFilter: b.PostFilter, Query: w.query, Size: b.Size, Sort: w.sort, TrackTotalHits: b.TrackTotalHits}
}

// sourceFilter is a body's _source: the fields a hit returns (source).
type sourceFilter struct {
	Excludes []string `json:"excludes"`
	Includes []string `json:"includes,omitempty"`
}

// highlightBody is a body's highlight (highlightPlan.body). HighlightQuery is the
// pinned search's only (arrange).
type highlightBody struct {
	Encoder           string         `json:"encoder"`
	Fields            map[string]any `json:"fields"`
	HighlightQuery    any            `json:"highlight_query,omitempty"`
	NumberOfFragments int            `json:"number_of_fragments"`
	PostTags          []string       `json:"post_tags"`
	PreTags           []string       `json:"pre_tags"`
}

// boolBody is a bool query.
type boolBody struct {
	Bool boolClauses `json:"bool"`
}

// boolClauses are a bool query's clauses: the text query (none in the pinned search's),
// the filters and the records kept out.
type boolClauses struct {
	Filter  []any `json:"filter,omitempty"`
	Must    []any `json:"must,omitempty"`
	MustNot []any `json:"must_not,omitempty"`
}

// pinnedBody is the body of the search for the records the rules promote.
type pinnedBody struct {
	Source    sourceFilter   `json:"_source"`
	Highlight *highlightBody `json:"highlight,omitempty"`
	Query     any            `json:"query"`
	Size      int            `json:"size"`
}

func boolQuery(text any, filters []any) boolClauses {
	b := boolClauses{Must: []any{text}}
	if len(filters) > 0 {
		b.Filter = filters
	}
	return b
}

// withPostFilter ANDs q with the body's post_filter, if it has one.
func (b searchBody) withPostFilter(q any) searchBody {
	if b.PostFilter != nil {
		q = map[string]any{"bool": map[string]any{"filter": []any{b.PostFilter, q}}}
	}
	b.PostFilter = q
	return b
}
