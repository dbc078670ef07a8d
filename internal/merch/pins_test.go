package merch_test

import (
	"fmt"
	"math/rand/v2"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/merch"
)

var all = func(string) bool { return true }

// page cuts page [offset, offset+limit) as the search service does: the organic hits
// of the layout's window, and the promoted records at their places.
func page(placed []merch.Placed, organic []string, offset, limit int) []string {
	l := merch.Layout(placed, int64(len(organic)), offset, limit)
	from, to := min(l.From, len(organic)), min(l.From+l.Size, len(organic))
	hits := organic[from:to]
	var out []string
	for i := 0; i < limit; i++ {
		if id, ok := l.Pinned[i]; ok {
			out = append(out, id)
			continue
		}
		if len(hits) > 0 {
			out, hits = append(out, hits[0]), hits[1:]
		}
	}
	return out
}

func organicHits(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("o%d", i)
	}
	return out
}

var _ = Describe("Placing promoted records", func() {
	It("puts each at its position, the earlier rule's first when two ask for one, the other at the next free place", func() {
		placed := merch.Place([]merch.Pin{{ObjectID: "a", Position: 2}, {ObjectID: "b", Position: 2}, {ObjectID: "c", Position: 1}}, all)
		Expect(placed).To(Equal([]merch.Placed{{ObjectID: "c", At: 0}, {ObjectID: "a", At: 1}, {ObjectID: "b", At: 2}}))
		Expect(page(placed, organicHits(3), 0, 10)).To(Equal([]string{"c", "a", "b", "o0", "o1", "o2"}))
	})

	It("leaves out the records the search's filters do not let through, the others filling their places", func() {
		placed := merch.Place([]merch.Pin{{ObjectID: "a", Position: 1}, {ObjectID: "b", Position: 3}}, func(id string) bool { return id == "b" })
		Expect(page(placed, organicHits(3), 0, 10)).To(Equal([]string{"o0", "o1", "b", "o2"}))
	})

	It("puts a record asking for a place beyond the end right after the last organic hit", func() {
		placed := merch.Place([]merch.Pin{{ObjectID: "a", Position: 50}, {ObjectID: "b", Position: 60}}, all)
		Expect(page(placed, organicHits(2), 0, 10)).To(Equal([]string{"o0", "o1", "a", "b"}))
		Expect(page(placed, organicHits(0), 0, 10)).To(Equal([]string{"a", "b"}))
	})

	It("cuts every page from one list: pages put together are the whole list, each record once", func() {
		r := rand.New(rand.NewPCG(3, 4))
		for round := 0; round < 300; round++ {
			var pins []merch.Pin
			for i := 0; i < r.IntN(6); i++ {
				pins = append(pins, merch.Pin{ObjectID: fmt.Sprintf("p%d", i), Position: 1 + r.IntN(30)})
			}
			placed := merch.Place(pins, all)
			organic := organicHits(r.IntN(25))
			whole := page(placed, organic, 0, 100)
			Expect(whole).To(HaveLen(len(organic)+len(placed)), "total counts each record once")
			limit := 1 + r.IntN(7)
			var joined []string
			for offset := 0; offset < len(whole)+limit; offset += limit {
				joined = append(joined, page(placed, organic, offset, limit)...)
			}
			Expect(joined).To(Equal(whole), "pins %v, %d organic, pages of %d", pins, len(organic), limit)
			for _, p := range placed {
				Expect(slices.Index(whole, p.ObjectID)).To(Equal(min(p.At, len(organic)+slices.Index(placed, p))))
			}
		}
	})

	It("asks for the organic hits of a page around its promoted records before the organic total is known", func() {
		placed := merch.Place([]merch.Pin{{ObjectID: "a", Position: 3}, {ObjectID: "b", Position: 12}}, all)
		Expect(merch.Layout(placed, merch.Unknown, 0, 10)).To(Equal(merch.PageLayout{From: 0, Size: 9, Pinned: map[int]string{2: "a"}}))
		Expect(merch.Layout(placed, merch.Unknown, 10, 10)).To(Equal(merch.PageLayout{From: 9, Size: 9, Pinned: map[int]string{1: "b"}}))
	})

	It("fetches, before knowing which promoted records pass the filters, a window that holds the page's organic hits whichever do", func() {
		pins := []merch.Pin{{ObjectID: "a", Position: 3}, {ObjectID: "b", Position: 12}, {ObjectID: "c", Position: 14}}
		for _, offset := range []int{0, 10, 20} {
			from, size := merch.Covering(merch.Place(pins, all), offset, 10)
			for mask := 0; mask < 1<<len(pins); mask++ {
				found := func(id string) bool { return mask&(1<<(id[0]-'a')) != 0 }
				l := merch.Layout(merch.Place(pins, found), 100, offset, 10)
				Expect(l.From).To(BeNumerically(">=", from), "offset %d, found %b", offset, mask)
				Expect(l.From+l.Size).To(BeNumerically("<=", from+size), "offset %d, found %b", offset, mask)
			}
		}
		from, size := merch.Covering(merch.Place(pins, all), 10, 10)
		Expect([]int{from, size}).To(Equal([]int{9, 11}), "one promoted record before the page, so one organic hit more")
	})
})
