package search

import (
	"bytes"
	"context"
	"fmt"

	"github.com/aislehq/aisle/internal/es"
)

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
