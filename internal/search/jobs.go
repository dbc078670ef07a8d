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

// A search runs in rounds: each round sends the bodies of every search still running,
// one with _search, several in one _msearch (a multi-search's queries, or a distinct
// search's merge round), and each search makes what it can of its answers. A search
// with matchingStrategy all that matches nothing is planned again without its last word
// for the next round; a distinct search whose answer holds records without the distinct
// field sends its merge round (searchquery's distinctmerge.go).

// emptyAnswer is the answer of an index that has no physical index yet: no hits.
var emptyAnswer = []byte(`{"hits":{"total":{"value":0},"hits":[]}}`)

// job is one search in progress.
type job struct {
	alias string
	// merch is what the index's rules change in it.
	merch merch.Outcome
	build func(drop int, m *searchquery.Merch) (searchquery.Plan, error)
	drop  int
	plan  searchquery.Plan
	// first is the search's answer while its merge round runs.
	first []byte
	// bodies are what the next round sends for it; none once done.
	bodies [][]byte
	res    searchquery.Response
	err    error
	// learned re-ranks the answer (learning.go).
	learned learned
}

// newJob plans a search of page of the index behind alias with build, as the rules'
// outcome changes it.
func newJob(alias string, out merch.Outcome, page searchquery.Window, build func(drop int, m *searchquery.Merch) (searchquery.Plan, error)) (*job, error) {
	j := &job{alias: alias, merch: out.Covering(page), build: build}
	if err := j.replan(0); err != nil {
		return nil, err
	}
	return j, nil
}

// replan plans the search without its last drop words.
func (j *job) replan(drop int) error {
	plan, err := j.build(drop, j.merch.Merch)
	if err != nil {
		return err
	}
	j.drop, j.plan, j.first, j.bodies = drop, plan, nil, [][]byte{plan.Body}
	return nil
}

// take reads the answers to the job's bodies; the job is done when it sends none.
func (j *job) take(answers [][]byte, errs []error) {
	for i, err := range errs {
		if errors.Is(err, es.ErrNotFound) {
			answers[i], errs[i] = emptyAnswer, nil
		}
	}
	for _, err := range errs {
		if err != nil {
			j.finish(searchquery.Response{}, j.refusal(err))
			return
		}
	}
	if j.first != nil {
		j.conclude(searchquery.ShapeMerged(j.plan, j.first, answers[0], answers[1]))
		return
	}
	ungrouped, err := j.plan.Ungrouped(answers[0])
	if err != nil || !ungrouped {
		if err == nil {
			j.conclude(searchquery.Shape(j.plan, answers[0]))
			return
		}
		j.finish(searchquery.Response{}, err)
		return
	}
	grouped, single, err := j.plan.MergeBodies()
	if err != nil {
		j.finish(searchquery.Response{}, err)
		return
	}
	j.first, j.bodies = answers[0], [][]byte{grouped, single}
}

// refusal says why the backend refused a grouping search too: a distinct field needs
// one value per record.
func (j *job) refusal(err error) error {
	if errors.Is(err, searchquery.ErrInvalid) && j.plan.Grouped() {
		return fmt.Errorf("%w (or a record holds several values of the distinct field, which groups need one of)", err)
	}
	return err
}

// conclude finishes with a response, unless it matched nothing and the search may drop
// a word.
func (j *job) conclude(res searchquery.Response, err error) {
	if err == nil && j.retry(res.Total) {
		return
	}
	j.finish(res, err)
}

// retry plans the search again without one more word when an answer of total hits
// calls for it (searchquery.NextDrop), finishing it if that plan fails: false when the
// answer stands.
func (j *job) retry(total int64) bool {
	drop, again := searchquery.NextDrop(j.plan.Retry, total > 0, j.drop)
	if !again {
		return false
	}
	if err := j.replan(drop); err != nil {
		j.finish(searchquery.Response{}, err)
	}
	return true
}

func (j *job) finish(res searchquery.Response, err error) {
	if err == nil {
		res.AppliedRules, res.UserData, res.RenderingContent = j.merch.Applied, j.merch.UserData, j.merch.RenderingContent
		j.learned.apply(&res)
	}
	j.res, j.err, j.bodies = res, err, nil
}

// roundJob is a search in progress that sends its bodies in the shared rounds.
type roundJob interface {
	// index is the alias its bodies search.
	index() string
	// pending are the bodies its next round sends; none once done.
	pending() [][]byte
	// take reads the answers to its pending bodies.
	take(answers [][]byte, errs []error)
}

func (j *job) index() string     { return j.alias }
func (j *job) pending() [][]byte { return j.bodies }

// runJobs runs jobs in rounds until every one is done.
func (s *Service) runJobs(ctx context.Context, jobs ...roundJob) {
	pending := jobs
	for len(pending) > 0 {
		var aliases []string
		var bodies [][]byte
		for _, j := range pending {
			for _, b := range j.pending() {
				aliases, bodies = append(aliases, j.index()), append(bodies, b)
			}
		}
		answers, errs := s.send(ctx, aliases, bodies)
		next := pending[:0]
		for _, j := range pending {
			n := len(j.pending())
			j.take(answers[:n], errs[:n])
			answers, errs = answers[n:], errs[n:]
			if len(j.pending()) > 0 {
				next = append(next, j)
			}
		}
		pending = next
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
