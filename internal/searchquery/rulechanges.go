package searchquery

import (
	"encoding/json"
	"slices"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/indexmapping"
	"github.com/aislehq/aisle/internal/relevance"
)

// What the merchandising rules of a search (internal/merch) add to its plan: filters
// AND'ed with the request's; hidden records kept out of everything (must_not ids, so
// facets do not count them either); boosts and buries as one band of the score, right
// after typo; promoted records kept out of the organic hits (a post_filter, so facets
// still count them when the query and filters match them) and fetched by a second,
// pinned search that the search service places at their positions.

// critRules is the rules' band: no criterion of the settings, it sits right after typo
// (after words when the ranking leaves typo out, first when it has neither), as
// Algolia's filters criterion comes after typo and words.
const critRules searchv1alpha1.RankingCriterion = "rules"

// RuleChanges is what the rules that apply to a search change in its plan (nil: nothing).
type RuleChanges struct {
	// Filters are the rules' filters, built by RuleFilter.
	Filters []any
	// Hide are records no hit may be.
	Hide []string
	// Boost and Bury: a record's level in the band is the weights of the boosts it
	// matches plus those of the buries it does not.
	Boost, Bury []Weighted
	// Promoted are the records the rules pin: not organic hits.
	Promoted []string
	// Window, when set, is the organic hits' from and size: the pinned records take the
	// page's other places. The search service sets it to the window covering the page
	// (merch.Covering), so a search with promoted records is planned once, for the window
	// its first round fetches.
	Window *Window
}

// Weighted is a boost or bury's query, built by RuleFilter, and its weight.
type Weighted struct {
	Query  any
	Weight int
}

// Window is the from and size of the organic hits.
type Window struct {
	From, Size int
}

// RuleFilter validates a rule's filter tree as a keyed search's filters are validated
// (filterable fields, values their field can hold), naming problems at place, and
// returns its query. Rules are the merchandiser's: a browser's policy does not narrow
// the fields they may name.
func RuleFilter(f *Filter, place string, settings searchv1alpha1.IndexSettings, s Schema) (any, []string) {
	var p problems
	fb := &filterBuilder{allowed: KeyedAccess(settings).filterable(), schema: s, p: &p}
	q := fb.build(f, place, 1)
	if len(p) > 0 {
		return nil, p
	}
	return q, nil
}

// checkMerch refuses enableRules false from browsers: public search always applies the
// index's rules (turning them off is the merchandiser's preview).
func checkMerch(req *Request, r Access, p *problems) {
	if r.Public && req.EnableRules != nil && !*req.EnableRules {
		p.add("enableRules", "is only available with a key: public search always applies the index's rules")
	}
	checkRuleContexts(req.RuleContexts, p)
}

func (m *RuleChanges) filters() []any {
	if m == nil {
		return nil
	}
	return m.Filters
}

// merchBand is the rules' band of one request: the weights as they fit the score.
type merchBand struct {
	boost, bury []Weighted
	size        int64
	// shift is the buries' weights: a record matching none of them and no boost sits
	// at this level, so explain shows level - shift.
	shift int64
}

// withMerch adds the rules' band to the radix, its size what the score has room for
// once the text criteria and a full range for each quantized criterion are counted: the
// weights are scaled down to fit when they exceed it.
func (p textPlan) withMerch(r Access, m *RuleChanges, quantized []searchv1alpha1.RankingCriterion) (textPlan, merchBand) {
	if m == nil || len(m.Boost)+len(m.Bury) == 0 {
		return p, merchBand{}
	}
	ranking := relevance.Ranking(r.Settings)
	sizes := p.sizes()
	room := int64(scoreLimit)
	if p.tail != nil {
		room = tailLimit
	}
	for _, c := range ranking {
		if sizes[c] > 1 {
			room /= sizes[c]
		}
	}
	for range quantized {
		room /= maxQuantizedLevels
	}
	band := newMerchBand(m, room)
	if band.size < 2 {
		return p, merchBand{}
	}
	sizes[critRules] = band.size
	p.radix = newRadix(withRulesBand(ranking), sizes, quantized)
	if p.tail != nil && p.radix.total() > tailLimit {
		p.tail = nil
	}
	return p, band
}

// withRulesBand places critRules in ranking.
func withRulesBand(ranking []searchv1alpha1.RankingCriterion) []searchv1alpha1.RankingCriterion {
	at := 0
	for _, after := range []searchv1alpha1.RankingCriterion{critTypo, critWords} {
		if i := slices.Index(ranking, after); i >= 0 {
			at = i + 1
			break
		}
	}
	return slices.Insert(slices.Clone(ranking), at, critRules)
}

// newMerchBand fits m's weights into room levels. When their sum does not fit, each is
// scaled down in proportion (to 1 at least), and those after the room is used up (the
// later rules') are left out.
func newMerchBand(m *RuleChanges, room int64) merchBand {
	var total int64
	for _, w := range m.Boost {
		total += int64(w.Weight)
	}
	for _, w := range m.Bury {
		total += int64(w.Weight)
	}
	budget := room - 1
	scale := func(ws []Weighted) []Weighted {
		var out []Weighted
		for _, w := range ws {
			n := int64(w.Weight)
			if total > room-1 {
				n = max(1, n*(room-1)/total)
			}
			if n <= budget {
				out = append(out, Weighted{Query: w.Query, Weight: int(n)})
				budget -= n
			}
		}
		return out
	}
	b := merchBand{boost: scale(m.Boost), bury: scale(m.Bury), size: 1}
	for _, w := range b.boost {
		b.size += int64(w.Weight)
	}
	for _, w := range b.bury {
		b.size += int64(w.Weight)
		b.shift += int64(w.Weight)
	}
	return b
}

// clauses are the band's constant_score clauses: a boost scores its matches, a bury the
// records it does not match.
func (b merchBand) clauses(r radix) []any {
	base := r.base(critRules)
	if base == 0 {
		return nil
	}
	out := make([]any, 0, len(b.boost)+len(b.bury))
	for _, w := range b.boost {
		out = append(out, constant(w.Query, int64(w.Weight)*base))
	}
	for _, w := range b.bury {
		out = append(out, constant(map[string]any{"bool": map[string]any{"must_not": []any{w.Query}}}, int64(w.Weight)*base))
	}
	return out
}

// matchAllRanked is the query of a search without words: every record, ranked by the
// clauses that only rank (the rules' band), which score nothing in filter context.
func matchAllRanked(ranked []any) any {
	all := map[string]any{"match_all": map[string]any{}}
	if len(ranked) == 0 {
		return all
	}
	return boolQ(map[string][]any{"filter": {all}, "should": ranked})
}

// promotedOut keeps the promoted records out of the organic hits and the group count
// (nil without promoted records): by the objectID field rather than by ids, as a filter
// on an exact-value field is checked from its column, where an ids filter walks the
// index beside every hit.
func (m *RuleChanges) promotedOut() any {
	if m == nil || len(m.Promoted) == 0 {
		return nil
	}
	return map[string]any{"bool": map[string]any{"must_not": []any{objectIDsQuery(m.Promoted)}}}
}

// arrange is a built body with what the rules change in the organic search (hidden
// records, the promoted ones out of the hits by promotedOut, the window of page it asks
// for), the body of the pinned search: the promoted records that pass every filter of
// the search, whatever the text matches (it only ranks and highlights them), with the
// same fields and highlights, and the window of organic hits the body asks for. The
// pinned body is nil without promoted records.
func (m *RuleChanges) arrange(body searchBody, page Window, promotedOut any) (searchBody, []byte, Window, error) {
	if m == nil {
		return body, nil, page, nil
	}
	if len(m.Hide) > 0 {
		body.Query.Bool.MustNot = []any{idsQuery(m.Hide)}
	}
	if len(m.Promoted) == 0 {
		return body, nil, page, nil
	}
	// The shopper's facetFilters are the body's post_filter (disjunctive facets): the
	// promoted records pass them too.
	filter := append([]any{idsQuery(m.Promoted)}, body.Query.Bool.Filter...)
	if body.PostFilter != nil {
		filter = append(filter, body.PostFilter)
	}
	pinned := pinnedBody{Query: boolBody{boolClauses{Filter: filter, MustNot: body.Query.Bool.MustNot}}, Size: len(m.Promoted), Source: body.Source,
		Highlight: highlightWords(body.Highlight, body.Query.Bool.Must)}
	body = body.withPostFilter(promotedOut)
	organic := m.window(page)
	body.From, body.Size = organic.From, organic.Size
	raw, err := json.Marshal(pinned)
	return body, raw, organic, err
}

// window is the organic hits' window of page: the one set, or the page's own.
func (m *RuleChanges) window(page Window) Window {
	if m.Window != nil {
		return *m.Window
	}
	return page
}

// highlightWords is the highlight h with the text clauses words as its highlight_query:
// the pinned search matches its records by ID and filters only (their places are the
// rules', not the score's), so the words that mark their fields come from there rather
// than from a text query scored beside the filter, which would cost a second expansion
// of the words' typos and prefixes over the index.
func highlightWords(h *highlightBody, words []any) *highlightBody {
	if h == nil || words == nil {
		return h
	}
	out := *h
	out.HighlightQuery = map[string]any{"bool": map[string]any{"should": words}}
	return &out
}

// objectIDsQuery matches the records of ids by their objectID field (their _id).
func objectIDsQuery(ids []string) map[string]any {
	return map[string]any{"terms": map[string]any{indexmapping.ObjectIDField: ids}}
}

func idsQuery(ids []string) map[string]any {
	return map[string]any{"ids": map[string]any{"values": ids}}
}

// ShapePinned turns the answer of a plan's pinned search into hits by objectID, each
// marked promoted, shaped as the organic hits are (without explain's ranking).
func ShapePinned(plan Shaping, raw []byte) (map[string]Hit, error) {
	var res esResponse
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, err
	}
	out := make(map[string]Hit, len(res.Hits.Hits))
	for _, h := range res.Hits.Hits {
		hit, err := shapeHit(h, plan.highlight)
		if err != nil {
			return nil, err
		}
		hit.Promoted = true
		out[hit.ObjectID] = hit
	}
	return out, nil
}
