package search

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/internal/whynot"
)

// errWhyNotAlone refuses explain's objectID in a multi-search: its two extra searches
// are for one search at a time.
var errWhyNotAlone = fmt.Errorf("%w: explain.objectID: why not is answered by a single search (POST /search), not in a multi-search", searchquery.ErrInvalid)

// whyNot says where explain's objectID is for the search j ran and what keeps it off
// the page (internal/whynot): three more searches, sent together in one _msearch.
func (s *Service) whyNot(ctx context.Context, j *job, access searchquery.Access, req searchquery.Request) (*searchquery.WhyNot, error) {
	id := req.Explain.ObjectID
	schema, err := s.Schema(ctx, j.alias)
	if err != nil {
		return nil, err
	}
	checks, err := whyNotChecks(j, access, req, schema)
	if err != nil {
		return nil, err
	}
	group := ""
	if j.plan.Shaping.Grouped() && access.Settings.Distinct != nil {
		group = string(access.Settings.Distinct.Field)
	}
	known := pageFacts(j, id)
	bodies, err := whyNotBodies(j.plan.Bodies.Search, id, checks, group, whynot.NeedsWindow(known))
	if err != nil {
		return nil, err
	}
	answers, errs := s.send(ctx, slices.Repeat([]string{j.alias}, len(bodies)), bodies)
	if err := errors.Join(errs...); errors.Is(err, es.ErrNotFound) {
		return &searchquery.WhyNot{ObjectID: id, Reasons: []searchquery.Reason{{Reason: whynot.ReasonNotFound, Detail: map[string]any{}}}}, nil
	} else if err != nil {
		return nil, fmt.Errorf("asking why %q is not on the page: %w", id, err)
	}
	f, err := whyNotFacts(known, access, req, checks, group, j.plan.Shaping, answers)
	if err != nil {
		return nil, err
	}
	w := whynot.Decide(f)
	return &w, nil
}

// whyNotBodies are the searches of why not: the record's checks, its ranking under the
// search, and (with window) the search's first hits.
func whyNotBodies(body []byte, id string, checks []whynot.Check, group string, window bool) ([][]byte, error) {
	c, err := whynot.Checks(id, checks)
	if err != nil {
		return nil, err
	}
	probe, err := whynot.Probe(body, id)
	if err != nil {
		return nil, err
	}
	if !window {
		return [][]byte{c, probe}, nil
	}
	w, err := whynot.Window(body, group)
	return [][]byte{c, probe, w}, err
}

// whyNotChecks are the parts of the search the record is tested against alone: the
// text, each query word, each filter, each rule's filters and the public policy's.
func whyNotChecks(j *job, access searchquery.Access, req searchquery.Request, schema searchquery.Schema) ([]whynot.Check, error) {
	var checks []whynot.Check
	if text, err := whynot.TextQuery(j.plan.Bodies.Search); err != nil {
		return nil, err
	} else if text != nil {
		checks = append(checks, whynot.Check{Kind: whynot.KindText, Name: "q", Query: text})
	}
	for _, w := range queryWords(j.merch.Query, j.res.IgnoredWords) {
		plan, err := searchquery.Build(searchquery.Request{Q: w, MatchingStrategy: searchquery.StrategyAll, TypoTolerance: req.TypoTolerance}, access, schema)
		if err != nil {
			return nil, err
		}
		q, err := whynot.TextQuery(plan.Bodies.Search)
		if err != nil {
			return nil, err
		}
		checks = append(checks, whynot.Check{Kind: whynot.KindWord, Name: w, Query: q})
	}
	named, err := searchquery.NamedFilters(req, access, schema)
	if err != nil {
		return nil, err
	}
	for _, n := range named {
		checks = append(checks, whynot.Check{Kind: whynot.KindFilter, Name: n.Name, Query: n.Query})
	}
	if m := j.merch.RuleChanges; m != nil {
		for i, q := range m.Filters {
			checks = append(checks, whynot.Check{Kind: whynot.KindRule, Name: j.merch.FilteredBy[i], Query: q})
		}
	}
	if !access.Public {
		for _, n := range searchquery.ForcedFilters(access.Policy, schema) {
			checks = append(checks, whynot.Check{Kind: whynot.KindPolicy, Name: n.Name, Query: n.Query})
		}
	}
	return checks, nil
}

// queryWords are the words of q the search used, each once, at most MaxWords.
func queryWords(q string, ignored []string) []string {
	var out []string
	for _, w := range whynot.Split(q) {
		if !slices.Contains(out, w) && !slices.Contains(ignored, w) && len(out) < searchquery.MaxWords {
			out = append(out, w)
		}
	}
	return out
}

// pageFacts are the facts the search itself holds about id: its page, the rules that
// pin or hide it.
func pageFacts(j *job, id string) whynot.Facts {
	f := whynot.Facts{ObjectID: id, Offset: j.res.Offset, HiddenBy: j.merch.HiddenBy[id], Closest: map[string]string{}}
	for _, h := range j.res.Hits {
		f.Page = append(f.Page, h.ObjectID)
		if !h.Promoted && h.Ranking != nil {
			f.Last, f.LastID = h.Ranking, h.ObjectID
		}
	}
	for _, p := range j.merch.Pins {
		if p.ObjectID == id {
			f.Pinned = p.Position
		}
	}
	return f
}

// whyNotFacts adds to f (pageFacts) what the answers of the checks, the probe and the
// window (when sent) say.
func whyNotFacts(f whynot.Facts, access searchquery.Access, req searchquery.Request, checks []whynot.Check, group string, shaping searchquery.Shaping, answers [][]byte) (whynot.Facts, error) {
	probe, err := whynot.ReadChecks(answers[0], checks)
	if err != nil {
		return whynot.Facts{}, err
	}
	ranking, hit, err := shaping.RankingOf(answers[1])
	if err != nil {
		return whynot.Facts{}, err
	}
	if hit != f.ObjectID {
		ranking = nil
	}
	if len(answers) > 2 {
		if f.Window, err = whynot.ReadWindow(answers[2], group); err != nil {
			return whynot.Facts{}, err
		}
	}
	f.Probe, f.Ranking, f.Order = probe, ranking, orderOf(req, access)
	if group != "" {
		f.Group = whynot.ValueAt(probe.Source, group)
	}
	held := whynot.WordsOf(probe.Source, searchablePaths(access))
	for _, c := range probe.Failed {
		if c.Kind == whynot.KindWord {
			f.Closest[c.Name] = whynot.Closest(c.Name, held)
		}
	}
	return f, nil
}

// orderOf is how the search orders hits, for comparing two of them.
func orderOf(req searchquery.Request, access searchquery.Access) whynot.Order {
	o := whynot.Order{Criteria: searchquery.Criteria(req, access.Settings)}
	for _, c := range access.Settings.CustomRanking {
		o.Custom = append(o.Custom, string(c.Field))
	}
	for _, s := range req.Sort {
		o.Sort = append(o.Sort, s.Field)
	}
	return o
}

func searchablePaths(access searchquery.Access) []string {
	var out []string
	for _, f := range access.Settings.SearchableFields {
		out = append(out, string(f.Path))
	}
	return out
}
