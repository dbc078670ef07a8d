package search

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/merch"
	"github.com/aislehq/aisle/internal/searchquery"
)

// A search runs in rounds (drive sends them): each round is what the search asks
// next, typed by what that is (round), and each answer moves the search on one step
// (attempt.take): to the next round, or to its response. The rounds a search may take:
//   - its plan's body, with the pinned search beside it when its rules promote records;
//   - a distinct search's merge round, when records without the distinct field match
//     (searchquery's distinctmerge.go);
//   - with promoted records, the organic hits of the window a page near the end of the
//     list needs (merch.PinnedPage);
//   - with matchingStrategy all, when nothing matched, the plan again without its last
//     word (job.advance, retry.go: the retry loop a facet value search shares).

// emptyAnswer is the answer of an index that has no physical index yet: no hits.
var emptyAnswer = []byte(`{"hits":{"total":{"value":0},"hits":[]}}`)

// round is what one search sends in a round.
type round struct {
	// pinned: the round fetches the promoted records of organic (its Pinned body) first.
	pinned bool
	// organic is the plan whose organic hits the round fetches: the search's plan, or
	// the one of the window a page with promoted records needs.
	organic searchquery.Plan
	// first, in a merge round, is organic's first answer.
	first []byte
	// bodies are what the round sends: the pinned body, then organic's search body or
	// its merge bodies.
	bodies [][]byte
}

// newRound is the round fetching organic's hits (in its merge round when first is
// set), and its promoted records when pinned.
func newRound(organic searchquery.Plan, pinned bool, first []byte) *round {
	r := &round{pinned: pinned, organic: organic, first: first}
	if pinned {
		r.bodies = append(r.bodies, organic.Bodies.Pinned)
	}
	if m := organic.Bodies.Merge; first != nil && m != nil {
		r.bodies = append(r.bodies, m.Grouped, m.Single)
		return r
	}
	r.bodies = append(r.bodies, organic.Bodies.Search)
	return r
}

// search is the job of an API search.
type search = job[*attempt]

// attempt is an API search tried without some words of its query (job: the retry).
type attempt struct {
	// spec is the search as decided (prepare), dropping the try's words.
	spec searchquery.Spec
	// merch is what the index's rules change in it.
	merch merch.Outcome
	// plan is spec compiled for its page (its organic window, with promoted records).
	plan searchquery.Plan
	// pinned and placed are the promoted records found and their places, once the
	// pinned search has answered.
	pinned map[string]searchquery.Hit
	placed []merch.Placed
	// next is the round it sends next; nil once done.
	next *round
	// settled is the round whose organic hits (res) the search settled on.
	settled *round
	res     searchquery.Response
}

// result is what a finished search answers: its page, or why it failed.
func result(j *search) (searchquery.Response, error) {
	if j.err != nil {
		return searchquery.Response{}, j.err
	}
	return j.cur.res, nil
}

// newJob is the search of spec against the index behind alias, with out the rules'
// outcome spec was decided with.
func newJob(alias string, spec searchquery.Spec, out merch.Outcome) (*search, error) {
	return newRetrying(alias, spec.Drop(), func(drop int) (*attempt, error) {
		return newAttempt(spec.Dropping(drop), out)
	})
}

// newAttempt compiles spec, from its first round.
func newAttempt(spec searchquery.Spec, out merch.Outcome) (*attempt, error) {
	plan, err := searchquery.Compile(spec)
	if err != nil {
		return nil, err
	}
	return &attempt{spec: spec, merch: out, plan: plan, next: newRound(plan, len(out.Pins) > 0, nil)}, nil
}

func (a *attempt) round() [][]byte {
	if a.next == nil {
		return nil
	}
	return a.next.bodies
}

// take moves the attempt on by the answers to its round; it settles on its organic hits.
func (a *attempt) take(answers [][]byte, errs []error) (verdict, error) {
	r := a.next
	if err := a.answered(r, answers, errs); err != nil {
		return verdict{}, err
	}
	if r.pinned {
		pinned, err := searchquery.ShapePinned(r.organic.Shaping, answers[0])
		if err != nil {
			return verdict{}, err
		}
		a.pinned = pinned
		a.placed = merch.Place(a.merch.Pins, func(id string) bool { _, ok := pinned[id]; return ok })
		answers = answers[1:]
	}
	if r.first != nil {
		res, err := searchquery.ShapeMerged(r.organic.Shaping, r.first, answers[0], answers[1])
		if err != nil {
			return verdict{}, err
		}
		return a.settle(r, res)
	}
	ungrouped, err := r.organic.Shaping.Ungrouped(answers[0])
	if err != nil {
		return verdict{}, err
	}
	if ungrouped {
		a.next = newRound(r.organic, false, answers[0])
		return verdict{}, nil
	}
	res, err := searchquery.Shape(r.organic.Shaping, answers[0])
	if err != nil {
		return verdict{}, err
	}
	return a.settle(r, res)
}

// answered reads an index without a physical index as one without hits, and fails the
// round with the first error among its answers (the pinned search's first).
func (a *attempt) answered(r *round, answers [][]byte, errs []error) error {
	for i, err := range errs {
		switch {
		case errors.Is(err, es.ErrNotFound):
			answers[i] = emptyAnswer
		case err != nil && r.pinned && i == 0:
			return err
		case err != nil:
			return refusal(r.organic.Shaping, err)
		}
	}
	return nil
}

// settle holds the organic hits res of r's plan: the first ones tell whether the search
// matched (job.advance decides whether to drop a word); a window's are placed at once.
func (a *attempt) settle(r *round, res searchquery.Response) (verdict, error) {
	if a.settled != nil {
		return verdict{}, a.place(r, res)
	}
	a.settled, a.res = r, res
	return verdict{settled: true, matched: res.Total > 0, retry: a.plan.Shaping.Retry}, nil
}

// keep goes on from the organic hits the attempt settled on: it fetches the organic
// window its page needs, or finishes.
func (a *attempt) keep() error { return a.place(a.settled, a.res) }

// place puts the promoted records among the organic hits res of r: the page is done, or
// needs the organic hits of another window.
func (a *attempt) place(r *round, res searchquery.Response) error {
	if len(a.merch.Pins) == 0 {
		a.finish(res)
		return nil
	}
	page, window, ok := merch.PinnedPage(res, r.organic.Shaping.Organic, a.placed, a.pinned, a.plan.Shaping.Offset, a.plan.Shaping.Limit)
	if ok {
		a.finish(page)
		return nil
	}
	plan, err := searchquery.Compile(a.spec.Windowed(window))
	if err != nil {
		return err
	}
	a.next = newRound(plan, false, nil)
	return nil
}

// refusal says why the backend refused a grouping search too: a distinct field needs
// one value per record.
func refusal(shaping searchquery.Shaping, err error) error {
	if errors.Is(err, searchquery.ErrInvalid) && shaping.Grouped() {
		return fmt.Errorf("%w (or a record holds several values of the distinct field, which groups need one of)", err)
	}
	return err
}

// finish is the attempt's answer: the page res, with what the rules add and re-ranked.
func (a *attempt) finish(res searchquery.Response) {
	res.AppliedRules, res.UserData, res.RenderingContent = a.merch.Applied, a.merch.UserData, a.merch.RenderingContent
	a.spec.ReRank.Apply(&res)
	a.res, a.next = res, nil
}

// drive runs jobs in shared rounds until every one is done: each round sends the bodies
// of every job's next round, one with _search, several in one _msearch (a multi-search's
// queries, a search's pinned and organic searches, a distinct search's merge round), and
// each job takes its answers (job.advance).
func drive[T try](ctx context.Context, s *Service, jobs []*job[T]) {
	running := jobs
	for len(running) > 0 {
		var aliases []string
		var bodies [][]byte
		sent := make([]int, len(running))
		for i, j := range running {
			b := j.bodies()
			sent[i] = len(b)
			for _, body := range b {
				aliases, bodies = append(aliases, j.alias), append(bodies, body)
			}
		}
		answers, errs := s.send(ctx, aliases, bodies)
		next := running[:0]
		for i, j := range running {
			n := sent[i]
			j.advance(answers[:n], errs[:n])
			answers, errs = answers[n:], errs[n:]
			if j.bodies() != nil {
				next = append(next, j)
			}
		}
		running = next
	}
}

// send runs bodies against the indexes behind aliases: one with _search, several in one
// _msearch. A failure of the whole _msearch fails each search.
func (s *Service) send(ctx context.Context, aliases []string, bodies [][]byte) ([][]byte, []error) {
	if len(bodies) == 1 {
		raw, err := s.run(ctx, aliases[0], bodies[0])
		return [][]byte{raw}, []error{err}
	}
	answers, errs, err := s.msearch(ctx, aliases, bodies)
	if err != nil {
		answers, errs = make([][]byte, len(bodies)), make([]error, len(bodies))
		for i := range errs {
			errs[i] = err
		}
	}
	return answers, errs
}

func (s *Service) msearch(ctx context.Context, aliases []string, bodies [][]byte) ([][]byte, []error, error) {
	nd, err := es.MsearchBody(aliases, bodies)
	if err != nil {
		return nil, nil, err
	}
	res, err := s.es.Msearch().TypedKeys(false).Raw(bytes.NewReader(nd)).Perform(ctx)
	answers, errs, err := es.MsearchItems(len(bodies), res, err)
	if err != nil {
		return nil, nil, fmt.Errorf("searching in an _msearch: %w", err)
	}
	for i, e := range errs {
		errs[i] = searchError(aliases[i], e)
	}
	return answers, errs, nil
}
