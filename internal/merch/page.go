package merch

import "github.com/aislehq/aisle/internal/searchquery"

// How a page with promoted records is put together from the searches the search service
// runs (its driver's rounds): planned for the window of organic hits covering the page,
// then cut from the organic hits fetched and the promoted records found, by the places
// of pins.go (PinnedPage).

// Covering is o with its search planned for the window of organic hits covering page
// (Covering of every pin placed, whichever the filters let through), which the first
// round fetches, instead of for its page and again for that window. o is unchanged
// without promoted records.
func (o Outcome) Covering(page searchquery.Window) Outcome {
	if len(o.Pins) == 0 || o.RuleChanges == nil {
		return o
	}
	m := *o.RuleChanges
	from, size := Covering(Place(o.Pins, func(string) bool { return true }), page.From, page.Size)
	m.Window = &searchquery.Window{From: from, Size: size}
	o.RuleChanges = &m
	return o
}

// PinnedPage is the page [offset, offset+limit) of a search with promoted records, once the
// pinned search found pinned and the organic search answered res for the window fetched:
// the page, or (false) the window of organic hits it needs instead, which only a page
// near the end of the list asks for (promoted records moving up to follow the last
// organic hit).
func PinnedPage(res searchquery.Response, fetched searchquery.Window, placed []Placed, pinned map[string]searchquery.Hit, offset, limit int) (searchquery.Response, searchquery.Window, bool) {
	lay := Layout(placed, res.Total, offset, limit)
	hits, ok := Within(res.Hits, fetched, lay)
	if !ok {
		return searchquery.Response{}, searchquery.Window{From: lay.From, Size: lay.Size}, false
	}
	res.Hits = hits
	return MergePage(res, lay, pinned, len(placed)), searchquery.Window{}, true
}

// Within cuts the organic hits of lay out of hits, those of the window fetched; false
// when fetched does not hold lay's window (the page needs another organic search).
func Within(hits []searchquery.Hit, fetched searchquery.Window, lay PageLayout) ([]searchquery.Hit, bool) {
	if lay.From < fetched.From || lay.From+lay.Size > fetched.From+fetched.Size {
		return nil, false
	}
	lo := min(lay.From-fetched.From, len(hits))
	return hits[lo:min(lo+lay.Size, len(hits))], true
}

// MergePage puts the promoted records at their places of the page and the organic hits,
// in order, at the others; total counts the promoted records shown in any page.
func MergePage(res searchquery.Response, lay PageLayout, pinned map[string]searchquery.Hit, promoted int) searchquery.Response {
	organic := res.Hits
	hits := make([]searchquery.Hit, 0, res.Limit)
	for i := 0; i < res.Limit; i++ {
		if id, ok := lay.Pinned[i]; ok {
			hits = append(hits, pinned[id])
			continue
		}
		if len(organic) > 0 {
			hits, organic = append(hits, organic[0]), organic[1:]
		}
	}
	res.Hits = hits
	res.Total += int64(promoted)
	return res
}
