package search

import (
	"github.com/aislehq/aisle/internal/merch"
	"github.com/aislehq/aisle/internal/searchquery"
)

// pinnedJob runs a search whose rules promote records, in the shared rounds: its first
// round fetches the promoted records the search's filters let through and the organic
// hits of every window the page may take whichever of them the filters let through
// (merch.Covering). The page's places are known once the organic total and the
// promoted records found are; only a page near the end of the list, where promoted
// records move up to follow the last organic hit, may need organic hits before that
// window, fetched in a round of its own. A search that matches nothing organically is
// planned again without a word, as a job is.
type pinnedJob struct {
	j       *job
	pinned  *pinnedFetch
	organic *job
	fetched searchquery.Window
	placed  []merch.Placed
}

// newPinnedJob starts j's first round.
func newPinnedJob(j *job) *pinnedJob {
	p := &pinnedJob{j: j}
	p.start()
	return p
}

// start plans the first round of j's current plan, whose body searches the window of
// organic hits covering the page (merch.Outcome.Covering).
func (p *pinnedJob) start() {
	p.pinned = &pinnedFetch{alias: p.j.alias, plan: p.j.plan}
	p.placed = nil
	p.fetched, p.organic = p.j.plan.Organic, organicJob(p.j.alias, p.j.plan)
}

// fetchOrganic plans the organic search of the window w.
func (p *pinnedJob) fetchOrganic(w searchquery.Window) {
	p.fetched = w
	organic, err := windowJob(p.j.alias, p.j.merch, w, func(m *searchquery.Merch) (searchquery.Plan, error) { return p.j.build(p.j.drop, m) })
	if err != nil {
		p.j.finish(searchquery.Response{}, err)
		return
	}
	p.organic = organic
}

func (p *pinnedJob) index() string { return p.j.alias }

func (p *pinnedJob) pending() [][]byte {
	if p.j.bodies == nil {
		return nil
	}
	return append(p.pinned.pending(), p.organic.pending()...)
}

func (p *pinnedJob) take(answers [][]byte, errs []error) {
	if n := len(p.pinned.pending()); n > 0 {
		p.pinned.take(answers[:n], errs[:n])
		answers, errs = answers[n:], errs[n:]
	}
	p.organic.take(answers, errs)
	switch {
	case p.pinned.err != nil:
		p.j.finish(searchquery.Response{}, p.pinned.err)
	case len(p.organic.pending()) > 0:
		// the organic search's own rounds (grouping) go on
	case p.organic.err != nil:
		p.j.finish(searchquery.Response{}, p.organic.err)
	default:
		p.place()
	}
}

// place lays out the page once the promoted records and the organic hits of the
// window fetched are in: it finishes j, plans it again without a word, or fetches the
// window the page needs.
func (p *pinnedJob) place() {
	if p.placed == nil {
		p.placed = merch.Place(p.j.merch.Pins, func(id string) bool { _, ok := p.pinned.hits[id]; return ok })
	}
	res, plan := p.organic.res, p.j.plan
	if p.j.retry(res.Total) {
		if p.j.err == nil {
			p.start()
		}
		return
	}
	lay := merch.Layout(p.placed, res.Total, plan.Offset, plan.Limit)
	if hits, ok := merch.Within(res.Hits, p.fetched, lay); ok {
		res.Hits = hits
		p.j.finish(merch.MergePage(res, lay, p.pinned.hits, len(p.placed)), nil)
		return
	}
	p.fetchOrganic(searchquery.Window{From: lay.From, Size: lay.Size})
}
