package merch

import (
	"math"
	"slices"
)

// Where promoted records go. Each promoted record the search's filters let through takes
// its position (1-based) in the whole result list, the organic hits filling the other
// places in their order. Two records asking for one place: the earlier rule's keeps it,
// the other takes the next free place. A record asking for a place beyond the end of the
// list comes right after the last organic hit. So every page is cut from one list:
// pagination stays consistent, and total counts each record once (organic total plus
// the promoted records shown).

// Placed is a promoted record at its 0-based place in the result list.
type Placed struct {
	ObjectID string
	At       int
}

// Place gives the pins that exist (found) their places, before any clamping to the
// list's end (Layout does that).
func Place(pins []Pin, found func(id string) bool) []Placed {
	kept := slices.DeleteFunc(slices.Clone(pins), func(p Pin) bool { return !found(p.ObjectID) })
	// Stable: on equal positions, the earlier rule's record comes first.
	slices.SortStableFunc(kept, func(a, b Pin) int { return a.Position - b.Position })
	out := make([]Placed, len(kept))
	next := 0
	for i, p := range kept {
		at := max(p.Position-1, next)
		out[i] = Placed{ObjectID: p.ObjectID, At: at}
		next = at + 1
	}
	return out
}

// Unknown is the organic total before the organic search has run.
const Unknown = math.MaxInt64

// PageLayout is one page of the result list: the organic hits to fetch, and the page's
// places the promoted records take.
type PageLayout struct {
	// From and Size select the organic hits of the page.
	From, Size int
	// Pinned maps a place of the page (0-based) to the promoted record there.
	Pinned map[int]string
}

// Layout lays out the page [offset, offset+limit) of a list of organic hits (organic
// of them, or Unknown) with placed records.
func Layout(placed []Placed, organic int64, offset, limit int) PageLayout {
	l := PageLayout{Pinned: map[int]string{}}
	before := 0
	for j, p := range placed {
		at := int64(p.At)
		if organic != Unknown {
			at = min(at, organic+int64(j))
		}
		switch {
		case at < int64(offset):
			before++
		case at < int64(offset+limit):
			l.Pinned[int(at)-offset] = p.ObjectID
		}
	}
	l.From, l.Size = offset-before, limit-len(l.Pinned)
	return l
}

// Covering is the window of organic hits [from, from+size) that holds the organic hits
// of the page [offset, offset+limit) whichever of placed the search's filters let
// through (the fewer before the page, the later its first organic hit; it never goes
// past the page's end), as long as the list does not end before the page (Layout then
// moves promoted records up, to follow the last organic hit).
func Covering(placed []Placed, offset, limit int) (from, size int) {
	l := Layout(placed, Unknown, offset, limit)
	return l.From, offset + limit - l.From
}
