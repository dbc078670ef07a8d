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
// (job.advance): to the next round, or to its response. The rounds a search may take:
//   - its plan's body, with the pinned search beside it when its rules promote records;
//   - a distinct search's merge round, when records without the distinct field match
//     (searchquery's distinctmerge.go);
//   - with promoted records, the organic hits of the window a page near the end of the
//     list needs (merch.PinnedPage);
//   - with matchingStrategy all, when nothing matched, the plan again without its last
//     word (searchquery.NextDrop).

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

// job is one search in progress.
type job struct {
	alias string
	// spec is the search as decided (prepare), dropping the words its retries dropped.
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
	res  searchquery.Response
	err  error
}

// newJob is the search of spec against the index behind alias, with out the rules'
// outcome spec was decided with.
func newJob(alias string, spec searchquery.Spec, out merch.Outcome) (*job, error) {
	j := &job{alias: alias, spec: spec, merch: out}
	if err := j.replan(spec.Drop()); err != nil {
		return nil, err
	}
	return j, nil
}

// replan compiles the search without its last drop words, from its first round.
func (j *job) replan(drop int) error {
	spec := j.spec.Dropping(drop)
	plan, err := searchquery.Compile(spec)
	if err != nil {
		return err
	}
	j.spec, j.plan, j.pinned, j.placed, j.next = spec, plan, nil, nil, newRound(plan, len(j.merch.Pins) > 0, nil)
	return nil
}

// advance reads the answers to the job's round: the job sends its next round, or is
// done.
func (j *job) advance(answers [][]byte, errs []error) {
	if err := j.step(answers, errs); err != nil {
		j.finish(searchquery.Response{}, err)
	}
}

// step moves the job on by the answers to its round.
func (j *job) step(answers [][]byte, errs []error) error {
	r := j.next
	if err := j.answered(r, answers, errs); err != nil {
		return err
	}
	if r.pinned {
		pinned, err := searchquery.ShapePinned(r.organic.Shaping, answers[0])
		if err != nil {
			return err
		}
		j.pinned = pinned
		j.placed = merch.Place(j.merch.Pins, func(id string) bool { _, ok := pinned[id]; return ok })
		answers = answers[1:]
	}
	if r.first != nil {
		res, err := searchquery.ShapeMerged(r.organic.Shaping, r.first, answers[0], answers[1])
		if err != nil {
			return err
		}
		return j.settle(r, res)
	}
	ungrouped, err := r.organic.Shaping.Ungrouped(answers[0])
	if err != nil {
		return err
	}
	if ungrouped {
		j.next = newRound(r.organic, false, answers[0])
		return nil
	}
	res, err := searchquery.Shape(r.organic.Shaping, answers[0])
	if err != nil {
		return err
	}
	return j.settle(r, res)
}

// answered reads an index without a physical index as one without hits, and fails the
// round with the first error among its answers (the pinned search's first).
func (j *job) answered(r *round, answers [][]byte, errs []error) error {
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

// settle takes the organic hits res of r's plan: the search drops one more word when
// nothing matched and it may, fetches the organic window its page needs, or finishes.
func (j *job) settle(r *round, res searchquery.Response) error {
	if drop, again := searchquery.NextDrop(j.plan.Shaping.Retry, res.Total > 0, j.spec.Drop()); again {
		return j.replan(drop)
	}
	if len(j.merch.Pins) == 0 {
		j.finish(res, nil)
		return nil
	}
	page, window, ok := merch.PinnedPage(res, r.organic.Shaping.Organic, j.placed, j.pinned, j.plan.Shaping.Offset, j.plan.Shaping.Limit)
	if ok {
		j.finish(page, nil)
		return nil
	}
	plan, err := searchquery.Compile(j.spec.Windowed(window))
	if err != nil {
		return err
	}
	j.next = newRound(plan, false, nil)
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

func (j *job) finish(res searchquery.Response, err error) {
	if err == nil {
		res.AppliedRules, res.UserData, res.RenderingContent = j.merch.Applied, j.merch.UserData, j.merch.RenderingContent
		j.spec.ReRank.Apply(&res)
	}
	j.res, j.err, j.next = res, err, nil
}

// drive runs jobs in shared rounds until every one is done: each round sends the bodies
// of every job's next round, one with _search, several in one _msearch (a multi-search's
// queries, a search's pinned and organic searches, a distinct search's merge round), and
// each job takes its answers (job.advance).
func (s *Service) drive(ctx context.Context, jobs []*job) {
	running := jobs
	for len(running) > 0 {
		var aliases []string
		var bodies [][]byte
		for _, j := range running {
			for _, b := range j.next.bodies {
				aliases, bodies = append(aliases, j.alias), append(bodies, b)
			}
		}
		answers, errs := s.send(ctx, aliases, bodies)
		next := running[:0]
		for _, j := range running {
			n := len(j.next.bodies)
			j.advance(answers[:n], errs[:n])
			answers, errs = answers[n:], errs[n:]
			if j.next != nil {
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
