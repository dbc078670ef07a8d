package search

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/merch"
	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/internal/whynot"
)

// errWhyNotAlone refuses explain's objectID in a multi-search: its extra searches are
// for one search at a time.
var errWhyNotAlone = fmt.Errorf("%w: explain.objectID: why not is answered by a single search (POST /search), not in a multi-search", searchquery.ErrInvalid)

// whyNotPlan is what why not's searches are built from: a job's plan and what its
// rules change, copied before the job runs, so that they are sent beside it.
type whyNotPlan struct {
	alias string
	spec  searchquery.Spec
	plan  searchquery.Plan
	merch merch.Outcome
}

func planOf(j *search) whyNotPlan {
	return whyNotPlan{alias: j.alias, spec: j.cur.spec, plan: j.cur.plan, merch: j.cur.merch}
}

// whyNotAsked is what why not asked for one plan, and the answers.
type whyNotAsked struct {
	body    []byte // the plan's body the searches were built from
	checks  []whynot.Check
	group   string
	answers [][]byte
	errs    []error
	err     error // building the searches failed
}

// driveWhyNot runs jobs (drive) and, with explain's objectID, says in each answer where
// that record is and what keeps it off the page (internal/whynot). Its searches read a
// job's plan, not its answer, so they are sent at once, beside the job's own rounds; a
// job whose retries dropped words (another plan) asks again, of the plan it settled on.
func (s *Service) driveWhyNot(ctx context.Context, jobs []*search, access searchquery.Access, req searchquery.Request) {
	if req.Explain.ObjectID == "" {
		drive(ctx, s, jobs)
		return
	}
	asks := make([]chan whyNotAsked, len(jobs))
	for i, j := range jobs {
		asks[i] = make(chan whyNotAsked, 1)
		p := planOf(j)
		go func() { asks[i] <- s.askWhyNot(ctx, p, access, req) }()
	}
	drive(ctx, s, jobs)
	for i, j := range jobs {
		asked := <-asks[i]
		if j.err != nil {
			continue
		}
		if !bytes.Equal(asked.body, j.cur.plan.Bodies.Search) {
			asked = s.askWhyNot(ctx, planOf(j), access, req)
		}
		j.cur.res.WhyNot, j.err = whyNotOf(j, asked, access, req)
	}
}

// askWhyNot sends why not's searches for p, in one _msearch: the record's checks, its
// ranking under the search and, unless a rule pins or hides it, the search's first hits.
func (s *Service) askWhyNot(ctx context.Context, p whyNotPlan, access searchquery.Access, req searchquery.Request) whyNotAsked {
	a := whyNotAsked{body: p.plan.Bodies.Search}
	id := req.Explain.ObjectID
	schema, err := s.Schema(ctx, p.alias)
	if err != nil {
		a.err = err
		return a
	}
	if a.checks, a.err = whyNotChecks(p, access, req, schema); a.err != nil {
		return a
	}
	if p.plan.Shaping.Grouped() && access.Settings.Distinct != nil {
		a.group = string(access.Settings.Distinct.Field)
	}
	window := whynot.NeedsWindow(pinnedAt(p.merch.Pins, id), p.merch.HiddenBy[id])
	bodies, err := whyNotBodies(p, id, a.checks, a.group, window)
	if err != nil {
		a.err = err
		return a
	}
	a.answers, a.errs = s.send(ctx, slices.Repeat([]string{p.alias}, len(bodies)), bodies)
	return a
}

// whyNotOf decides, from what was asked and the answer of j, where explain's objectID
// is for j's search.
func whyNotOf(j *search, a whyNotAsked, access searchquery.Access, req searchquery.Request) (*searchquery.WhyNot, error) {
	id := req.Explain.ObjectID
	if a.err != nil {
		return nil, a.err
	}
	if err := errors.Join(a.errs...); errors.Is(err, es.ErrNotFound) {
		return &searchquery.WhyNot{ObjectID: id, Reasons: []searchquery.Reason{{Reason: whynot.ReasonNotFound, Detail: map[string]any{}}}}, nil
	} else if err != nil {
		return nil, fmt.Errorf("asking why %q is not on the page: %w", id, err)
	}
	f, err := whyNotFacts(pageFacts(j, id), access, req, a.checks, a.group, j.cur.plan.Shaping, a.answers)
	if err != nil {
		return nil, err
	}
	w := whynot.Decide(f)
	return &w, nil
}

// whyNotBodies are the searches of why not: the record's checks, its ranking under the
// search, and (with window) the search's first hits. The window reads IDs alone, so it
// is the search compiled without explain, which names no clause.
func whyNotBodies(p whyNotPlan, id string, checks []whynot.Check, group string, window bool) ([][]byte, error) {
	c, err := whynot.Checks(id, checks)
	if err != nil {
		return nil, err
	}
	probe, err := whynot.Probe(p.plan.Bodies.Search, id)
	if err != nil {
		return nil, err
	}
	if !window {
		return [][]byte{c, probe}, nil
	}
	plain, err := searchquery.Compile(p.spec.Unexplained())
	if err != nil {
		return nil, err
	}
	w, err := whynot.Window(plain.Bodies.Search, group)
	return [][]byte{c, probe, w}, err
}

// whyNotChecks are the parts of the search the record is tested against alone: the
// text, each query word, each filter, each rule's filters and the public policy's.
func whyNotChecks(p whyNotPlan, access searchquery.Access, req searchquery.Request, schema searchquery.Schema) ([]whynot.Check, error) {
	var checks []whynot.Check
	if text, err := whynot.TextQuery(p.plan.Bodies.Search); err != nil {
		return nil, err
	} else if text != nil {
		checks = append(checks, whynot.Check{Kind: whynot.KindText, Name: "q", Query: text})
	}
	for _, w := range queryWords(p.merch.Query, p.plan.Shaping.IgnoredWords) {
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
	if m := p.merch.RuleChanges; m != nil {
		for i, q := range m.Filters {
			checks = append(checks, whynot.Check{Kind: whynot.KindRule, Name: p.merch.FilteredBy[i], Query: q})
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
func pageFacts(j *search, id string) whynot.Facts {
	f := whynot.Facts{ObjectID: id, Offset: j.cur.res.Offset, HiddenBy: j.cur.merch.HiddenBy[id], Closest: map[string]string{}}
	for _, h := range j.cur.res.Hits {
		f.Page = append(f.Page, h.ObjectID)
		if !h.Promoted && h.Ranking != nil {
			f.Last, f.LastID = h.Ranking, h.ObjectID
		}
	}
	f.Pinned = pinnedAt(j.cur.merch.Pins, id)
	return f
}

// pinnedAt is the position a rule pins id at (0: none does).
func pinnedAt(pins []merch.Pin, id string) int {
	for _, p := range pins {
		if p.ObjectID == id {
			return p.Position
		}
	}
	return 0
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
