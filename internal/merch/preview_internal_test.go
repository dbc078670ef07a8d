package merch

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("A preview's view of the rules", func() {
	saved := compile([]ruleDoc{doc("a", cond("shoe", Contains)), doc("b", cond("shoe", Contains))})
	disabled := doc("b", cond("shoe", Contains))
	off := false
	disabled.Rule.Enabled = &off

	DescribeTable("is the index's set without the rule, with the draft in its place",
		func(o *Overlay, set *Set, want []string) {
			Expect(matched(o.over(set), "red shoe")).To(Equal(want))
		},
		Entry("no overlay: the index's own", (*Overlay)(nil), saved, []string{"a", "b"}),
		Entry("without the rule", &Overlay{id: "b"}, saved, []string{"a"}),
		Entry("without a rule the index does not have", &Overlay{id: "c"}, saved, []string{"a", "b"}),
		Entry("a draft in the saved rule's place", &Overlay{id: "b", draft: ptr(doc("b", cond("boot", Contains)))}, saved, []string{"a"}),
		Entry("a new rule beside the saved ones", &Overlay{id: "c", draft: ptr(doc("c", cond("red", StartsWith)))}, saved, []string{"c", "a", "b"}),
		Entry("a disabled draft applies nowhere", &Overlay{id: "b", draft: &disabled}, saved, []string{"a"}),
		Entry("a draft on an index without rules", &Overlay{id: "c", draft: ptr(doc("c", cond("shoe", Is)))}, (*Set)(nil), []string{}),
	)
})

func ptr[T any](v T) *T { return &v }
