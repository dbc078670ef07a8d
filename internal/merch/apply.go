package merch

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"strings"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/relevance"
	"github.com/aislehq/aisle/internal/searchquery"
)

// Outcome is what the rules that apply to one search change in it.
type Outcome struct {
	// Query is the query to search: rewritten by the first rule with a query consequence.
	Query string
	// RuleChanges goes into the search's plan (nil: no rule changes it).
	RuleChanges *searchquery.RuleChanges
	// Pins are the promoted records with their 1-based positions, in the order of the
	// rules, each record once (the first rule's position), hidden ones left out.
	Pins []Pin
	// Applied are the IDs of the rules applied, in order; UserData their userData.
	Applied  []string
	UserData []json.RawMessage
	// RenderingContent is the answer's: the first rule's that has one, or the index's.
	RenderingContent *searchquery.RenderingContent
	// HiddenBy is the first rule hiding each hidden record; FilteredBy the rule of each
	// of RuleChanges.Filters, in order (why a record is not on a page: internal/whynot).
	HiddenBy   map[string]string
	FilteredBy []string
}

// Pin is a promoted record and its 1-based position.
type Pin struct {
	ObjectID string
	Position int
}

// ForSearch is what the rules of the index behind alias change in a search of req (as
// over sees them; nil: the index's own), and nothing when req turns them off or alias
// names no SearchIndex: the query to search, the filters, hides, boosts, buries and pins,
// and what the answer carries (the rules applied, their userData, the renderingContent).
// schema is the records' mapping the rules' filters are built against.
func (s *Service) ForSearch(ctx context.Context, alias string, access searchquery.Access, req searchquery.Request, schema searchquery.Schema, over *Overlay) (Outcome, error) {
	names, ok := esnames.FromAlias(alias)
	if !ok || req.EnableRules != nil && !*req.EnableRules {
		return Outcome{Query: req.Q, RenderingContent: searchquery.DefaultRendering(access.Settings)}, nil
	}
	return s.Apply(ctx, Target{Names: names, Settings: access.Settings}, schema,
		Search{Query: req.Q, Filters: req.Filters, FacetFilters: req.FacetFilters, Contexts: req.RuleContexts, Overlay: over})
}

// Apply finds the rules of t that apply to search now, and what they change. schema is
// the records' mapping their filters are built against: a rule whose filters no longer
// fit the settings or the mapping (a field no longer filterable) is skipped.
func (s *Service) Apply(ctx context.Context, t Target, schema searchquery.Schema, search Search) (Outcome, error) {
	q := search.Query
	set, err := s.cache.get(ctx, t)
	if err == nil {
		set = search.Overlay.over(set)
	}
	if err != nil || set.Empty() {
		return Outcome{Query: q, RenderingContent: searchquery.DefaultRendering(t.Settings)}, err
	}
	var toks []token
	if set.needsQuery() {
		if toks, err = s.analyzer.query(ctx, relevance.Language(t.Settings), q); err != nil {
			return Outcome{}, err
		}
	}
	return outcome(q, toks, set.Match(termsOf(toks), heldBy(search), s.clock()), t.Settings, schema), nil
}

// outcome applies matches, in order, to a search of q (whose tokens are toks).
func outcome(q string, toks []token, matches iter.Seq[*compiled], settings searchv1alpha1.IndexSettings, schema searchquery.Schema) Outcome {
	o := Outcome{Query: q, RenderingContent: searchquery.DefaultRendering(settings)}
	m := &searchquery.RuleChanges{}
	rendered := false
	edited := false
	for c := range matches {
		if len(o.Applied) == MaxApplied {
			break
		}
		if !addRule(m, c.rule.Consequence, settings, schema) {
			continue
		}
		o.Applied = append(o.Applied, c.rule.ObjectID)
		o.noteCauses(c.rule)
		if hasUserData(c.rule.Consequence) {
			o.UserData = append(o.UserData, c.rule.Consequence.UserData)
		}
		if r := c.rule.Consequence.RenderingContent; r != nil && !rendered {
			o.RenderingContent, rendered = r, true
		}
		o.Pins = addPins(o.Pins, c.rule.Consequence.Promote)
		if e := c.rule.Consequence.Query; e != nil && !edited {
			o.Query, edited = editQuery(q, toks, *e, c.terms.Remove), true
		}
	}
	o.Pins = slices.DeleteFunc(o.Pins, func(p Pin) bool { return slices.Contains(m.Hide, p.ObjectID) })
	for _, p := range o.Pins {
		m.Promoted = append(m.Promoted, p.ObjectID)
	}
	if len(m.Filters)+len(m.Hide)+len(m.Boost)+len(m.Bury)+len(m.Promoted) > 0 {
		o.RuleChanges = m
	}
	return o
}

// addRule adds a consequence's filters, boosts, buries and hidden records to m; false,
// changing nothing, when a filter does not build.
func addRule(m *searchquery.RuleChanges, c Consequence, settings searchv1alpha1.IndexSettings, schema searchquery.Schema) bool {
	var filters []any
	if c.Filters != nil {
		q, probs := searchquery.RuleFilter(c.Filters, "filters", settings, schema)
		if len(probs) > 0 {
			return false
		}
		filters = append(filters, q)
	}
	boost, ok := weighted(c.Boost, settings, schema)
	if !ok {
		return false
	}
	bury, ok := weighted(c.Bury, settings, schema)
	if !ok {
		return false
	}
	m.Filters = append(m.Filters, filters...)
	m.Boost, m.Bury = append(m.Boost, boost...), append(m.Bury, bury...)
	for _, id := range c.Hide {
		if !slices.Contains(m.Hide, id) {
			m.Hide = append(m.Hide, id)
		}
	}
	return true
}

func weighted(ws []Weighted, settings searchv1alpha1.IndexSettings, schema searchquery.Schema) ([]searchquery.Weighted, bool) {
	out := make([]searchquery.Weighted, 0, len(ws))
	for i, w := range ws {
		q, probs := searchquery.RuleFilter(w.Filter, fmt.Sprintf("filter[%d]", i), settings, schema)
		if len(probs) > 0 {
			return nil, false
		}
		out = append(out, searchquery.Weighted{Query: q, Weight: w.weight()})
	}
	return out, true
}

// addPins adds promotions to pins, each record once: an earlier rule's position stays.
func addPins(pins []Pin, ps []Promotion) []Pin {
	for _, p := range ps {
		if !slices.ContainsFunc(pins, func(x Pin) bool { return x.ObjectID == p.ObjectID }) {
			pins = append(pins, Pin(p))
		}
	}
	return pins
}

// editQuery applies a query consequence: the replacement, or q without the runs of
// words whose terms are one of remove's (cut where the query holds them, so the rest
// keeps its spelling, and a trailing space, which says the last word is complete).
func editQuery(q string, toks []token, e QueryEdit, remove [][]string) string {
	if e.Replace != nil {
		return *e.Replace
	}
	terms := termsOf(toks)
	cut := make([]bool, len(q))
	for _, r := range remove {
		for i := 0; i+len(r) <= len(terms) && len(r) > 0; i++ {
			if slices.Equal(terms[i:i+len(r)], r) {
				for b := toks[i].start; b < toks[i+len(r)-1].end; b++ {
					cut[b] = true
				}
			}
		}
	}
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		if !cut[i] {
			b.WriteByte(q[i])
		}
	}
	return strings.TrimLeft(collapseSpaces(b.String()), " ")
}

// collapseSpaces writes runs of spaces left by cuts as one.
func collapseSpaces(s string) string {
	for strings.Contains(s, "  ") {
		s = strings.ReplaceAll(s, "  ", " ")
	}
	return s
}

// noteCauses records which rule hid a record first, and whose filters r adds.
func (o *Outcome) noteCauses(r Rule) {
	if r.Consequence.Filters != nil {
		o.FilteredBy = append(o.FilteredBy, r.ObjectID)
	}
	for _, id := range r.Consequence.Hide {
		if _, ok := o.HiddenBy[id]; !ok {
			if o.HiddenBy == nil {
				o.HiddenBy = map[string]string{}
			}
			o.HiddenBy[id] = r.ObjectID
		}
	}
}
