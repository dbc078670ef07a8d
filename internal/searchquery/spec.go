package searchquery

// Spec is a search decided once, from the request (validated by Decide), the index's
// settings and mapping, and then what the search service reads for it (With): what it
// matches (the words, as the rules rewrite the query, less those dropped), how it ranks
// (the bands' bounds, popularity, the words' frequencies), what it filters and facets,
// how it groups (distinct), what the rules pin, hide, boost and bury, how it re-ranks
// the first page and what it asks by meaning (hybrid). Compile turns it into the
// Elasticsearch bodies it sends: a Spec is never changed by them.
type Spec struct {
	// req is the request as validated (its q as the rules rewrite it, With).
	req    Request
	access Access
	schema Schema
	// Page is the window of hits the request asks for, its limit capped.
	Page Window
	// filters are the request's filters, the key's and the public policy's forced ones.
	filters []any
	// sel are facetFilters' selections, by field.
	sel selection
	// distinct groups the hits (nil: not); semantic is the kNN clause (nil: no hybrid).
	distinct *distinctPlan
	semantic *semanticPlan
	// in are what the search service read for the search.
	in Inputs
	// ReRank reorders the finished first page (the zero value: not).
	ReRank ReRanking
}

// ReRanking is a first page's re-ranking by what shoppers' events taught: each hit's
// attractiveness for the query, weighed by strength percent (ReRank).
type ReRanking struct {
	Scores   map[string]float64
	Strength int
}

// Apply re-ranks a finished page as r says.
func (r ReRanking) Apply(res *Response) {
	if len(r.Scores) > 0 {
		ReRank(res, r.Scores, r.Strength)
	}
}

// Decide validates req against what access allows and the index's schema, and returns
// the search it asks for. Every problem is named in one ErrInvalid error. It is the one
// validation of a search: what the rules and the signals add later (With) was validated
// where it was written.
func Decide(req Request, r Access, s Schema) (Spec, error) {
	var p problems
	limit := checkPaging(&req, r, &p)
	checkFacets(&req, r, &p)
	checkSort(&req, r, &p)
	checkFields(&req, r, &p)
	checkRanking(&req, r, s, &p)
	checkMerch(&req, r, &p)
	spec := Spec{access: r, schema: s}
	spec.filters = filterClauses(req.Filters, r, s, &p)
	spec.sel = checkFacetFilters(&req, r, s, &p)
	spec.distinct = distinctOf(req, r, s, &p)
	spec.semantic = semanticOf(req, r, &p)
	if err := p.err(); err != nil {
		return Spec{}, err
	}
	spec.req, spec.Page = req, Window{From: req.Offset, Size: limit}
	return spec, nil
}

// Query is the text the search matches: the request's, or the rules' rewrite (With).
func (s Spec) Query() string { return s.req.Q }

// WithQuery is s matching q instead: the rules' rewrite of the request's query.
func (s Spec) WithQuery(q string) Spec {
	s.req.Q = q
	return s
}

// With is s with what the search service read for it.
func (s Spec) With(in Inputs) Spec {
	s.in = in
	return s
}

// Dropping is s without the last drop words of its query (matchingStrategy all's
// retries: NextDrop).
func (s Spec) Dropping(drop int) Spec {
	s.in.Drop = drop
	return s
}

// Drop is the number of query words s drops from the end.
func (s Spec) Drop() int { return s.in.Drop }

// Windowed is s fetching the organic hits of w: the window a page with promoted records
// needs (merch.PinnedPage). Without the rules' changes there is no window to move.
func (s Spec) Windowed(w Window) Spec {
	if s.in.RuleChanges == nil {
		return s
	}
	m := *s.in.RuleChanges
	m.Window = &w
	s.in.RuleChanges = &m
	return s
}

// Unexplained is s without explain: the same query, filters and order, its hits without
// a ranking and its clauses without names, whose matched_queries a backend works out
// for every match (why not's window, which reads IDs alone).
func (s Spec) Unexplained() Spec {
	s.req.Explain = Explain{}
	return s
}

// Grouped reports a search that groups its hits (distinct).
func (s Spec) Grouped() bool { return s.distinct != nil }

// StatsFields are the fields whose bounds s's quantized bands need (FieldStats).
func (s Spec) StatsFields() []string { return StatsFields(s.req, s.access, s.schema) }

// WordClauses are the clauses whose record counts s's frequency strategy weighs.
func (s Spec) WordClauses() []WordClause { return WordClauses(s.req, s.access, s.schema) }
