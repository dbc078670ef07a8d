package search

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aislehq/aisle/internal/merch"
	"github.com/aislehq/aisle/internal/searchquery"
)

// errPreviewRulesOff refuses a preview of a request that turns rules off: both of its
// pages would be the same.
var errPreviewRulesOff = fmt.Errorf("%w: enableRules: a preview compares the page with a rule and without it; it cannot turn rules off", searchquery.ErrInvalid)

// Preview is the answer of POST /rules/{ruleId}/preview: the same search with the rule
// and without it.
type Preview struct {
	With    searchquery.Response `json:"with"`
	Without searchquery.Response `json:"without"`
}

// Preview runs req twice against the index behind alias, once with the rules as with
// sees them and once as without does (merch.Service.Previews), sent together in each
// round. Nothing is written; explain's objectID is answered for each.
func (s *Service) Preview(ctx context.Context, alias string, access searchquery.Access, req searchquery.Request, with, without *merch.Overlay) (Preview, error) {
	if req.EnableRules != nil && !*req.EnableRules {
		return Preview{}, errPreviewRulesOff
	}
	start := time.Now()
	jobs := make([]*search, 2)
	for i, over := range []*merch.Overlay{with, without} {
		j, err := s.prepare(ctx, alias, access, req, over)
		if err != nil {
			return Preview{}, err
		}
		jobs[i] = j
	}
	s.driveWhyNot(ctx, jobs, access, req)
	if err := errors.Join(jobs[0].err, jobs[1].err); err != nil {
		return Preview{}, err
	}
	took := time.Since(start).Milliseconds()
	jobs[0].cur.res.Took, jobs[1].cur.res.Took = took, took
	return Preview{With: jobs[0].cur.res, Without: jobs[1].cur.res}, nil
}
