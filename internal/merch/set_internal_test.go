package merch

import (
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// doc is a stored rule whose patterns' terms are their words (as the generic language
// reads lowercase words).
func doc(id string, conds ...Condition) ruleDoc {
	r := Rule{ObjectID: id, Conditions: conds, Consequence: Consequence{Hide: []string{"x"}}}
	t := terms{Patterns: make([][]string, len(conds))}
	for i, c := range conds {
		if c.Pattern != nil {
			t.Patterns[i] = strings.Fields(*c.Pattern)
		}
	}
	return ruleDoc{RuleID: id, Rule: r, Terms: t}
}

func cond(pattern, anchoring string) Condition {
	return Condition{Pattern: &pattern, Anchoring: anchoring}
}

func matched(s *Set, q string) []string {
	out := []string{}
	for c := range s.Match(strings.Fields(q), held{}, time.Now()) {
		out = append(out, c.rule.ObjectID)
	}
	return out
}

func at(s string) *time.Time {
	ts, err := time.Parse(time.RFC3339, s)
	Expect(err).NotTo(HaveOccurred())
	return &ts
}

var _ = Describe("Matching a query's words against the rules", func() {
	DescribeTable("the anchoring says where the pattern sits in the query",
		func(anchoring, pattern, query string, match bool) {
			s := compile([]ruleDoc{doc("r", cond(pattern, anchoring))})
			Expect(matched(s, query)).To(HaveLen(map[bool]int{true: 1, false: 0}[match]))
		},
		Entry("is: the whole query", Is, "red shoe", "red shoe", true),
		Entry("is: not a longer query", Is, "red shoe", "red shoe sale", false),
		Entry("is: not a query ending with it", Is, "red shoe", "big red shoe", false),
		Entry("is with an empty pattern: the empty query", Is, "", "", true),
		Entry("is with an empty pattern: no other query", Is, "", "shoe", false),
		Entry("startsWith: the first words", StartsWith, "red shoe", "red shoe sale", true),
		Entry("startsWith: the whole query", StartsWith, "red shoe", "red shoe", true),
		Entry("startsWith: not further in", StartsWith, "red shoe", "big red shoe", false),
		Entry("startsWith: not fewer words", StartsWith, "red shoe", "red", false),
		Entry("endsWith: the last words", EndsWith, "red shoe", "big red shoe", true),
		Entry("endsWith: the whole query", EndsWith, "red shoe", "red shoe", true),
		Entry("endsWith: not earlier", EndsWith, "red shoe", "red shoe sale", false),
		Entry("contains: a run of words anywhere", Contains, "red shoe", "big red shoe sale", true),
		Entry("contains: the whole query", Contains, "red shoe", "red shoe", true),
		Entry("contains: not the words apart", Contains, "red shoe", "red big shoe", false),
		Entry("contains: whole words, not part of one", Contains, "shoe", "shoes", false),
	)

	It("applies a rule without pattern, or without conditions, to every query, even the empty one", func() {
		s := compile([]ruleDoc{doc("none"), doc("open", Condition{})})
		Expect(matched(s, "")).To(Equal([]string{"none", "open"}))
		Expect(matched(s, "anything at all")).To(Equal([]string{"none", "open"}))
	})

	It("orders the rules by anchoring (is, startsWith and endsWith, contains, none), then longer pattern, then objectID", func() {
		s := compile([]ruleDoc{
			doc("a-always"),
			doc("b-contains", cond("red", Contains)),
			doc("c-ends", cond("shoe", EndsWith)),
			doc("d-starts-long", cond("red shoe", StartsWith)),
			doc("e-is", cond("red shoe", Is)),
			doc("f-starts", cond("red", StartsWith)),
			// Its closest condition counts: is, not contains.
			doc("g-two", cond("shoe", Contains), cond("red shoe", Is)),
		})
		Expect(matched(s, "red shoe")).To(Equal([]string{"e-is", "g-two", "d-starts-long", "c-ends", "f-starts", "b-contains", "a-always"}))
	})

	It("never matches a disabled rule, nor a pattern in which the language kept no word", func() {
		off := false
		d := doc("off", cond("lamp", Is))
		d.Rule.Enabled = &off
		stop := doc("stop", cond("the", Is))
		stop.Terms.Patterns[0] = []string{}
		s := compile([]ruleDoc{d, stop})
		Expect(matched(s, "lamp")).To(BeEmpty())
		Expect(matched(s, "")).To(BeEmpty())
	})

	DescribeTable("a rule is valid from the start of one of its windows, until its end",
		func(now string, valid bool) {
			r := Rule{Validity: []Window{{From: at("2030-01-01T00:00:00Z"), Until: at("2030-02-01T00:00:00Z")}, {From: at("2031-01-01T00:00:00Z")}}}
			Expect(r.validAt(*at(now))).To(Equal(valid))
		},
		Entry("before the first", "2029-12-31T23:59:59Z", false),
		Entry("at the first's start", "2030-01-01T00:00:00Z", true),
		Entry("at the first's end", "2030-02-01T00:00:00Z", false),
		Entry("between them", "2030-06-01T00:00:00Z", false),
		Entry("at the open window's start", "2031-01-01T00:00:00Z", true),
		Entry("long after", "2099-01-01T00:00:00Z", true),
	)

	It("leaves a rule without windows always valid", func() {
		Expect((Rule{}).validAt(time.Now())).To(BeTrue())
	})
})
