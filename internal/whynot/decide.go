package whynot

import (
	"github.com/aislehq/aisle/internal/indexmapping"
	"slices"

	"github.com/aislehq/aisle/internal/searchquery"
)

// Reasons, as the answer's whyNot names them.
const (
	ReasonNotFound     = "notFound"
	ReasonHidden       = "hidden"
	ReasonFiltered     = "filtered"
	ReasonPolicy       = "policy"
	ReasonMissingWords = "missingWords"
	ReasonDistinct     = "distinct"
	ReasonRanked       = "ranked"
)

// Facts are what the search, the probe and the window found about the record.
type Facts struct {
	ObjectID string
	// Page are the IDs of the page's hits, Offset its first hit's place (0-based), and
	// Last the ranking of its last organic hit (nil: none).
	Page   []string
	Offset int
	Last   *searchquery.Ranking
	LastID string
	// Probe is what the probe found; Ranking the record's under the search (nil when
	// the search does not match it).
	Probe   ProbeAnswer
	Ranking *searchquery.Ranking
	// Window are the first hits of the search; Group the record's value of the field
	// grouping them (nil: no grouping, or the record has none).
	Window []Ranked
	Group  any
	// Pinned is the position a rule pins the record at (0: none); HiddenBy the rule
	// hiding it ("" none).
	Pinned   int
	HiddenBy string
	// Closest is, for each query word the record does not hold, its nearest word.
	Closest map[string]string
	Order   Order
}

// Decide says where the record is and what keeps it off the page. On the page, the only
// reason is the public policy's, which public search would add.
func Decide(f Facts) searchquery.WhyNot {
	w := searchquery.WhyNot{ObjectID: f.ObjectID, Reasons: []searchquery.Reason{}}
	if !f.Probe.Exists {
		w.Reasons = append(w.Reasons, reason(ReasonNotFound, map[string]any{}))
		return w
	}
	w.Position = Position(f)
	w.Reasons = append(w.Reasons, policyReasons(f.Probe.Failed)...)
	if slices.Contains(f.Page, f.ObjectID) {
		return w
	}
	if f.HiddenBy != "" {
		w.Reasons = append(w.Reasons, reason(ReasonHidden, map[string]any{"rule": f.HiddenBy}))
	}
	w.Reasons = append(w.Reasons, filterReasons(f.Probe.Failed)...)
	if r, ok := missingWords(f); ok {
		w.Reasons = append(w.Reasons, r)
	}
	if f.Ranking == nil || f.HiddenBy != "" || f.Pinned > 0 {
		return w
	}
	if shown := shownInstead(f); shown != "" {
		w.Reasons = append(w.Reasons, reason(ReasonDistinct, map[string]any{indexmapping.ObjectIDField: shown}))
		return w
	}
	if b, ok := Beaten(f.Order, f.Last, f.Ranking); ok {
		d := map[string]any{"criterion": b.Criterion, indexmapping.ObjectIDField: f.LastID, "above": b.Above, "value": b.Below}
		if b.Field != "" {
			d["field"] = b.Field
		}
		w.Reasons = append(w.Reasons, reason(ReasonRanked, d))
	}
	return w
}

// NeedsWindow reports whether deciding may need the window: not when a rule pins the
// record (at pinned, 0 none) or hides it (hiddenBy, "" none), as Position and Decide
// read the pin or the rule. The window is sent beside the search itself, before its
// page is known: for a record on the page, or one the search does not match, it is
// read for nothing.
func NeedsWindow(pinned int, hiddenBy string) bool {
	return pinned == 0 && hiddenBy == ""
}

// Position is the record's 1-based position for the request: on the page, where a rule
// pins it, or among the window's hits; nil when it is hidden or not among the first
// MaxWindow.
func Position(f Facts) *int {
	if i := slices.Index(f.Page, f.ObjectID); i >= 0 {
		return ptr(f.Offset + i + 1)
	}
	if f.Pinned > 0 {
		return ptr(f.Pinned)
	}
	if f.HiddenBy != "" {
		return nil
	}
	i := slices.IndexFunc(f.Window, func(r Ranked) bool { return r.ID == f.ObjectID })
	if i < 0 {
		return nil
	}
	return ptr(i + 1)
}

// shownInstead is the record of the record's group shown in its place: the first hit
// of the window holding its group's value, when the record itself is not there.
func shownInstead(f Facts) string {
	if f.Group == nil || slices.ContainsFunc(f.Window, func(r Ranked) bool { return r.ID == f.ObjectID }) {
		return ""
	}
	for _, r := range f.Window {
		if r.Group != nil && equalValues(r.Group, f.Group) {
			return r.ID
		}
	}
	return ""
}

func policyReasons(failed []Check) []searchquery.Reason {
	var out []searchquery.Reason
	for _, c := range failed {
		if c.Kind == KindPolicy {
			out = append(out, reason(ReasonPolicy, map[string]any{"filter": c.Name}))
		}
	}
	return out
}

func filterReasons(failed []Check) []searchquery.Reason {
	var out []searchquery.Reason
	for _, c := range failed {
		switch c.Kind {
		case KindFilter:
			out = append(out, reason(ReasonFiltered, map[string]any{"filter": c.Name}))
		case KindRule:
			out = append(out, reason(ReasonFiltered, map[string]any{"filter": "rule", "rule": c.Name}))
		}
	}
	return out
}

// missingWords lists the query words the record does not hold, each with its nearest
// word; when the text fails as a whole with no single word missing (a phrase of words
// held apart), it says so without words.
func missingWords(f Facts) (searchquery.Reason, bool) {
	var words []map[string]any
	text := false
	for _, c := range f.Probe.Failed {
		switch c.Kind {
		case KindWord:
			words = append(words, map[string]any{"word": c.Name, "closest": f.Closest[c.Name]})
		case KindText:
			text = true
		}
	}
	if len(words) == 0 && !text {
		return searchquery.Reason{}, false
	}
	return reason(ReasonMissingWords, map[string]any{"words": orEmpty(words), "matchesQuery": !text}), true
}

func orEmpty(ws []map[string]any) []map[string]any {
	if ws == nil {
		return []map[string]any{}
	}
	return ws
}

func equalValues(a, b any) bool {
	switch x := a.(type) {
	case string, float64, bool:
		return x == b
	}
	return false
}

func reason(name string, detail map[string]any) searchquery.Reason {
	return searchquery.Reason{Reason: name, Detail: detail}
}

func ptr(i int) *int { return &i }
