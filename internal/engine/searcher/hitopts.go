package searcher

import (
	"github.com/aislehq/aisle/internal/engine/docsort"
	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/highlight"
)

// HitOptions are what a collapse's inner_hits and a top_hits aggregation ask of the hits
// they return, with ES's defaults (3 hits from the first).
type HitOptions struct {
	From, Size  int
	Sort        []SortSpec
	Source      *SourceFilter
	Version     bool
	SeqNoTerm   bool
	TrackScores bool
	Highlight   *highlight.Options
}

// unsupportedHitKeys are options ES takes for these hits that the engine does not have.
var unsupportedHitKeys = []string{"explain", "fields", "stored_fields", "docvalue_fields", "script_fields"}

// ParseHitOptions reads the options of m; other keys are refused, in the words ES uses
// for an unknown field of what (inner_hits, top_hits), except those skip lists.
func ParseHitOptions(m map[string]any, what string, skip ...string) (*HitOptions, error) {
	h := &HitOptions{Size: 3}
	for k, v := range m {
		if isOneOf(k, skip) {
			continue
		}
		if err := h.set(k, v, what); err != nil {
			return nil, err
		}
	}
	return h, nil
}

func (h *HitOptions) set(k string, v any, what string) error {
	var err error
	switch k {
	case "from":
		h.From, err = intValue(k, v)
	case "size":
		h.Size, err = intValue(k, v)
	case "sort":
		h.Sort, err = docsort.Parse(v)
	case "_source":
		h.Source, err = ParseSourceFilter(v)
	case "version":
		h.Version, _ = v.(bool)
	case "seq_no_primary_term":
		h.SeqNoTerm, _ = v.(bool)
	case "track_scores":
		h.TrackScores, _ = v.(bool)
	case "highlight":
		h.Highlight, err = highlight.Parse(v)
	default:
		if isOneOf(k, unsupportedHitKeys) {
			return eserr.IllegalArgument("[%s] option [%s] is not supported by this engine", what, k)
		}
		return eserr.XContentParse("[1:1] [%s] unknown field [%s]", what, k)
	}
	return err
}

// request is a search of the hits these options describe, for query (a query body).
func (h *HitOptions) request(query any) *Request {
	return &Request{Query: query, From: h.From, Size: h.Size, Sort: h.Sort, Source: h.Source, TrackTotal: 10000,
		Version: h.Version, SeqNoTerm: h.SeqNoTerm, TrackScores: h.TrackScores, Highlight: h.Highlight}
}

func isOneOf(s string, list []string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
