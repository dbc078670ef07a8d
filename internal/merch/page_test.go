package merch_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/merch"
	"github.com/aislehq/aisle/internal/searchquery"
)

func hitsOf(ids ...string) []searchquery.Hit {
	out := make([]searchquery.Hit, len(ids))
	for i, id := range ids {
		out[i] = searchquery.Hit{ObjectID: id}
	}
	return out
}

func idsOf(hits []searchquery.Hit) []string {
	out := []string{}
	for _, h := range hits {
		out = append(out, h.ObjectID)
	}
	return out
}

var _ = Describe("Putting a page with promoted records together", func() {
	DescribeTable("cuts the page's organic hits out of the window fetched, or says another is needed",
		func(fetched searchquery.Window, lay merch.PageLayout, want []string, ok bool) {
			got, held := merch.Within(hitsOf("a", "b", "c", "d"), fetched, lay)
			Expect(held).To(Equal(ok))
			if ok {
				Expect(idsOf(got)).To(Equal(want))
			}
		},
		Entry("the window itself", searchquery.Window{From: 0, Size: 4}, merch.PageLayout{From: 0, Size: 4}, []string{"a", "b", "c", "d"}, true),
		Entry("a part of it", searchquery.Window{From: 10, Size: 4}, merch.PageLayout{From: 11, Size: 2}, []string{"b", "c"}, true),
		Entry("past the hits the window had", searchquery.Window{From: 0, Size: 8}, merch.PageLayout{From: 3, Size: 4}, []string{"d"}, true),
		Entry("starting before it", searchquery.Window{From: 10, Size: 4}, merch.PageLayout{From: 9, Size: 2}, nil, false),
		Entry("ending after it", searchquery.Window{From: 10, Size: 4}, merch.PageLayout{From: 12, Size: 3}, nil, false),
	)

	DescribeTable("places the promoted records and fills the other places with the organic hits in order",
		func(organic []string, pinned map[int]string, limit int, want []string) {
			found := map[string]searchquery.Hit{}
			for _, id := range pinned {
				found[id] = searchquery.Hit{ObjectID: id, Promoted: true}
			}
			res := merch.MergePage(searchquery.Response{Hits: hitsOf(organic...), Total: 7, Limit: limit},
				merch.PageLayout{Pinned: pinned}, found, len(pinned))
			Expect(idsOf(res.Hits)).To(Equal(want))
			Expect(res.Total).To(Equal(int64(7+len(pinned))), "the promoted records counted once")
		},
		Entry("no promoted record", []string{"a", "b"}, map[int]string{}, 2, []string{"a", "b"}),
		Entry("one first", []string{"a", "b"}, map[int]string{0: "p"}, 3, []string{"p", "a", "b"}),
		Entry("two apart", []string{"a", "b", "c"}, map[int]string{1: "p", 3: "q"}, 5, []string{"a", "p", "b", "q", "c"}),
		Entry("a short last page", []string{"a"}, map[int]string{1: "p"}, 4, []string{"a", "p"}),
	)

	It("plans a search with promoted records for the window covering its page, and one without as it is", func() {
		plain := merch.Outcome{RuleChanges: &searchquery.RuleChanges{}}
		Expect(plain.Covering(searchquery.Window{From: 0, Size: 10}).RuleChanges.Window).To(BeNil())
		pinned := merch.Outcome{RuleChanges: &searchquery.RuleChanges{Promoted: []string{"p"}}, Pins: []merch.Pin{{ObjectID: "p", Position: 1}}}
		covered := pinned.Covering(searchquery.Window{From: 0, Size: 10})
		from, size := merch.Covering(merch.Place(pinned.Pins, all), 0, 10)
		Expect(*covered.RuleChanges.Window).To(Equal(searchquery.Window{From: from, Size: size}))
		Expect(pinned.RuleChanges.Window).To(BeNil(), "the outcome it was given is left as it was")
	})
})
