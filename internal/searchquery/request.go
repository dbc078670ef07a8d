// Package searchquery turns a search request of Aisle's HTTP API into an Elasticsearch search
// body, and an Elasticsearch answer into the API's search response. It is pure: no I/O,
// so every rule is covered by table tests.
//
// How a request becomes a query (documented for clients in docs/openapi.yaml, for
// merchandisers in docs/ranking.md):
//   - q is split into words (stop words dropped, at most MaxWords); each word matches the
//     searchable fields through variants (exact, with typos, as a prefix, by synonyms),
//     and the matchingStrategy says which words a record needs (words.go, variants.go,
//     synonyms.go, typos.go, text.go).
//   - The ranking's criteria are the digits of one integer score (bands.go); the sort and
//     custom criteria are sort keys around _score, or quantized bands when moved before a
//     text criterion (sortkeys.go). explain decodes the score with the same radix
//     (explain.go).
//   - Highlights and snippets come from Elasticsearch's highlighter (highlight.go,
//     snippets.go).
//   - Filters and facets work on the exact value of a field: <path>.keyword for strings,
//     <path> for numbers, dates and booleans (see internal/indexmapping). Which of the two a
//     field has comes from the index's mapping (Schema).
//   - The reserved version field of the catalog is never returned.
package searchquery

import "encoding/json"

// Limits of a search request.
const (
	// MaxLimit is the most hits a keyed search returns.
	MaxLimit = 100
	// MaxPublicLimit is the most hits a public search returns.
	MaxPublicLimit = 50
	// DefaultLimit is the number of hits when the request does not say.
	DefaultLimit = 20
	// MaxWindow bounds offset+limit: deep pages cost the backend more with every page.
	MaxWindow = 1000
	// DefaultSnippetWords is the length of a snippet when the request does not say.
	DefaultSnippetWords = 10
	// MaxSnippetWords bounds a snippet's length.
	MaxSnippetWords = 100
	// MaxSnippets bounds the snippets of a request.
	MaxSnippets = 10
	// DefaultFacetValues is the number of values per facet when the request does not say.
	DefaultFacetValues = 10
	// MaxFacetValues bounds maxValuesPerFacet.
	MaxFacetValues = 100
	// MaxQueryLength bounds q, in bytes.
	MaxQueryLength = 512
	// MaxConditions bounds the leaf conditions of one filter tree.
	MaxConditions = 100
	// MaxDepth bounds the nesting of and/or/not.
	MaxDepth = 5
	// MaxInValues bounds the values of one "in" condition.
	MaxInValues = 100
)

// Request is the body of POST /search and of the public search endpoint.
type Request struct {
	// Q is the query text; empty matches every record.
	Q string `json:"q"`
	// Limit is the number of hits (default 20).
	Limit *int `json:"limit"`
	// Offset skips that many hits, for pagination.
	Offset int `json:"offset"`
	// Filters keep only the records that match.
	Filters *Filter `json:"filters"`
	// Facets are field paths whose value counts are returned.
	Facets []string `json:"facets"`
	// MaxValuesPerFacet is the number of values returned per facet (default 10).
	MaxValuesPerFacet int `json:"maxValuesPerFacet"`
	// Sort orders hits by fields before relevance.
	Sort []Sort `json:"sort"`
	// Fields limits the record fields returned; empty returns all.
	Fields []string `json:"fields"`
	// TypoTolerance matches words within a typo distance (default true).
	TypoTolerance *bool `json:"typoTolerance"`
	// Highlight adds the matched fields with the matched words in <em> (default true).
	Highlight *bool `json:"highlight"`
	// MatchingStrategy is frequency (default), all, last or any.
	MatchingStrategy string `json:"matchingStrategy"`
	// Explain adds each hit's ranking: the level of each criterion; its object form also
	// asks why one record is not on the page (explainopt.go, whyNot).
	Explain Explain `json:"explain"`
	// Snippets asks for windows of text around the best match of fields.
	Snippets []SnippetRequest `json:"snippets"`
	// FacetFilters select facet values: OR within a field, AND across fields and with
	// Filters. Hits obey every selection; each facet's counts ignore its own (facets.go).
	FacetFilters map[string][]any `json:"facetFilters"`
	// Distinct returns at most that many hits per value of the index's distinct field:
	// true for the setting's limit, false or 0 for none (distinct.go).
	Distinct *Distinct `json:"distinct"`
	// VariantsLimit is the number of other records of its group a hit carries (default 0).
	VariantsLimit int `json:"variantsLimit"`
	// EnableRules: false leaves the index's merchandising rules out (keyed search only).
	EnableRules *bool `json:"enableRules"`
	// RuleContexts name the page's contexts; rules conditioned on one apply (rulecontexts.go).
	RuleContexts []string `json:"ruleContexts"`
	// Hybrid searches by meaning with an embedder of the index as well as by words
	// (hybrid.go); Vector is the query's vector for it.
	Hybrid *Hybrid   `json:"hybrid"`
	Vector []float64 `json:"vector"`
}

// SnippetRequest asks for a snippet of about Words words (default 10) of Field.
type SnippetRequest struct {
	Field string `json:"field"`
	Words *int   `json:"words"`
}

// Filter is one node of a filter tree: a condition on a field (exactly one of Eq, In,
// Range, Exists) or a combination (exactly one of And, Or, Not).
type Filter struct {
	Field  string   `json:"field,omitempty"`
	Eq     any      `json:"eq,omitempty"`
	In     []any    `json:"in,omitempty"`
	Range  *Range   `json:"range,omitempty"`
	Exists *bool    `json:"exists,omitempty"`
	And    []Filter `json:"and,omitempty"`
	Or     []Filter `json:"or,omitempty"`
	Not    *Filter  `json:"not,omitempty"`
}

// Range bounds a number or a date (RFC 3339 or yyyy-mm-dd).
type Range struct {
	GT  any `json:"gt,omitempty"`
	GTE any `json:"gte,omitempty"`
	LT  any `json:"lt,omitempty"`
	LTE any `json:"lte,omitempty"`
}

// Sort is one sort key.
type Sort struct {
	Field string `json:"field"`
	// Order is asc (default) or desc.
	Order string `json:"order,omitempty"`
}

// Response is the answer of a search.
type Response struct {
	Hits   []Hit                   `json:"hits"`
	Total  int64                   `json:"total"`
	Offset int                     `json:"offset"`
	Limit  int                     `json:"limit"`
	Facets map[string][]FacetValue `json:"facets"`
	// FacetStats are the bounds of the numeric facets requested, over the records their
	// counts are taken from; absent when none is requested or no such record holds one.
	FacetStats map[string]FacetStats `json:"facetStats,omitempty"`
	// IgnoredWords are the query words the search did not use: beyond the tenth, or
	// dropped from the end because all of them matched nothing.
	IgnoredWords []string `json:"ignoredWords"`
	// Took is the time the search took, in milliseconds, measured by the API server.
	Took int64 `json:"took"`
	// AppliedRules are the IDs of the merchandising rules applied, in order; UserData
	// their consequences' userData, in the same order (absent when none).
	AppliedRules []string          `json:"appliedRules,omitempty"`
	UserData     []json.RawMessage `json:"userData,omitempty"`
	// RenderingContent is how the page shows facets (rendering.go); absent when unset.
	RenderingContent *RenderingContent `json:"renderingContent,omitempty"`
	// WhyNot is where explain's objectID is and what keeps it off the page (whynot.go).
	WhyNot *WhyNot `json:"whyNot,omitempty"`
	// SemanticFallback: the hybrid search's embedder failed to embed the query, so the
	// search ran on words alone (absent otherwise). Set by the API server.
	SemanticFallback bool `json:"semanticFallback,omitempty"`
}

// Hit is one matching record.
type Hit struct {
	ObjectID string          `json:"objectID"`
	Record   json.RawMessage `json:"record"`
	// Highlights maps a field path to its value with matched words in <em>…</em>,
	// HTML-escaped: a string, or an array of strings for a field holding several.
	Highlights map[string]any `json:"highlights,omitempty"`
	// Snippets maps a requested field to a window of its text around the best match,
	// HTML-escaped, matches in <em>, … where text was cut.
	Snippets map[string]string `json:"snippets,omitempty"`
	// Ranking is the hit's level of each criterion, with explain.
	Ranking *Ranking `json:"ranking,omitempty"`
	// Variants are other records of the hit's group, best-ranked first (distinct with a
	// variantsLimit).
	Variants []Variant `json:"variants,omitempty"`
	// Promoted marks a record a merchandising rule put at its position.
	Promoted bool `json:"promoted,omitempty"`
}

// FacetValue is one value of a facet and the number of matching records holding it.
type FacetValue struct {
	Value any   `json:"value"`
	Count int64 `json:"count"`
}

func boolOr(p *bool, def bool) bool {
	if p == nil {
		return def
	}
	return *p
}
