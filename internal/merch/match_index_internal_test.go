package merch

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/searchquery"
)

// linearMatch is Match as its comment states it, testing every condition of every rule
// in turn: the rules a pattern matches (the rest of its condition holding), closest
// first, then longer, then by objectID; then the rules a condition without a pattern
// selects, by objectID; those valid at now.
func linearMatch(docs []ruleDoc, q []string, s Search, now time.Time) []string {
	type found struct {
		id           string
		rank, length int
		valid        bool
	}
	var matched, plain []found
	for _, d := range docs {
		if !d.Rule.enabled() {
			continue
		}
		f := found{id: d.Rule.ObjectID, rank: -1, valid: d.Rule.validAt(now)}
		selected := len(d.Rule.Conditions) == 0
		for j, c := range d.Rule.Conditions {
			if !Holds(c, s) {
				continue
			}
			if c.Pattern == nil {
				selected = true
				continue
			}
			if j >= len(d.Terms.Patterns) || *c.Pattern != "" && len(d.Terms.Patterns[j]) == 0 {
				continue
			}
			ts := d.Terms.Patterns[j]
			if rank, ok := patternMatch(c.Anchoring, ts, q); ok && (f.rank < 0 || rank < f.rank || rank == f.rank && len(ts) > f.length) {
				f.rank, f.length = rank, len(ts)
			}
		}
		switch {
		case f.rank >= 0:
			matched = append(matched, f)
		case selected:
			plain = append(plain, f)
		}
	}
	slices.SortStableFunc(matched, func(a, b found) int {
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		if a.length != b.length {
			return b.length - a.length
		}
		return strings.Compare(a.id, b.id)
	})
	slices.SortStableFunc(plain, func(a, b found) int { return strings.Compare(a.id, b.id) })
	out := []string{}
	for _, f := range append(matched, plain...) {
		if f.valid {
			out = append(out, f.id)
		}
	}
	return out
}

// patternMatch says whether pattern ts matches query q under anchoring, and how
// closely (an unknown anchoring reads as is, as Set does).
func patternMatch(anchoring string, ts, q []string) (int, bool) {
	switch {
	case anchoring == StartsWith:
		return rankEdge, len(ts) > 0 && len(ts) <= len(q) && slices.Equal(q[:len(ts)], ts)
	case anchoring == EndsWith:
		return rankEdge, len(ts) > 0 && len(ts) <= len(q) && slices.Equal(q[len(q)-len(ts):], ts)
	case anchoring == Contains:
		for i := 0; len(ts) > 0 && i+len(ts) <= len(q); i++ {
			if slices.Equal(q[i:i+len(ts)], ts) {
				return rankContains, true
			}
		}
		return rankContains, false
	}
	return rankIs, slices.Equal(q, ts)
}

func indexedMatch(set *Set, q []string, s Search, now time.Time) []string {
	out := []string{}
	for c := range set.Match(q, heldBy(s), now) {
		out = append(out, c.rule.ObjectID)
	}
	return out
}

// small is a mix of few words, brands, categories and contexts, so that random rules
// and searches meet often.
var small = mix{words: 6, brands: 3, categories: 4, contexts: 3, fields: 2}

// mismatch is a search for which Match and linearMatch differ.
type mismatch struct {
	query     string
	want, got []string
}

// sameAsLinear compares Match with linearMatch on rules and searches drawn from seed:
// the first search they differ on (nil: none), and how many searches found rules.
func sameAsLinear(seed uint64, rules, searches int) (*mismatch, int) {
	r := rand.New(rand.NewPCG(seed, seed))
	now := time.Now()
	docs := mixedRules(r, rules, small, now)
	if r.IntN(4) == 0 {
		no := false
		docs[r.IntN(len(docs))].Rule.Enabled = &no
	}
	set := compile(docs)
	met := 0
	for range searches {
		q, s := small.search(r)
		want, got := linearMatch(docs, q, s, now), indexedMatch(set, q, s, now)
		if !slices.Equal(want, got) {
			return &mismatch{query: strings.Join(q, " "), want: want, got: got}, met
		}
		if len(want) > 0 {
			met++
		}
	}
	return nil, met
}

var _ = Describe("Matching through the index", func() {
	It("finds exactly the rules testing every rule in turn finds, in the same order", func() {
		met := 0
		for seed := uint64(1); seed <= 300; seed++ {
			m, n := sameAsLinear(seed, 1+int(seed%60), 40)
			Expect(m).To(BeNil(), "seed %d: %+v", seed, m)
			met += n
		}
		// The draws must meet: a good share of the searches find rules.
		Expect(met).To(BeNumerically(">", 300*40/4))
	})

	DescribeTable("a condition sits behind a gate every search it holds for opens",
		func(c Condition, s Search, holds bool) {
			set := compile([]ruleDoc{doc("r", c)})
			Expect(Holds(c, s)).To(Equal(holds))
			Expect(indexedMatch(set, nil, s, time.Now())).To(HaveLen(map[bool]int{true: 1, false: 0}[holds]))
		},
		Entry("eq a number, selected by in of an int and a float",
			Condition{Filters: &searchquery.Filter{Field: "size", Eq: 2.0}}, Search{Filters: &searchquery.Filter{Field: "size", In: []any{2, 2.0}}}, true),
		Entry("eq 0, selected by eq -0",
			Condition{Filters: &searchquery.Filter{Field: "size", Eq: 0.0}}, Search{Filters: &searchquery.Filter{Field: "size", Eq: -0.0}}, true),
		Entry("eq a bool, behind its field's gate",
			Condition{Filters: &searchquery.Filter{Field: "gift", Eq: true}}, Search{Filters: &searchquery.Filter{Field: "gift", Eq: true}}, true),
		Entry("eq a value, selected by an or whose branches all select it",
			Condition{Filters: &searchquery.Filter{Field: "brand", Eq: "a"}},
			Search{Filters: &searchquery.Filter{Or: []searchquery.Filter{{Field: "brand", Eq: "a"}, {And: []searchquery.Filter{{Field: "brand", In: []any{"a"}}, {Field: "x", Eq: 1.0}}}}}}, true),
		Entry("eq a string, not selected by the number of the same digits",
			Condition{Filters: &searchquery.Filter{Field: "size", Eq: "2"}}, Search{Filters: &searchquery.Filter{Field: "size", Eq: 2.0}}, false),
		Entry("a range, behind its field's gate",
			Condition{Filters: &searchquery.Filter{Field: "price", Range: &searchquery.Range{LT: 100.0}}}, Search{Filters: &searchquery.Filter{Field: "price", Eq: 50.0}}, true),
		Entry("a not, behind the open gate",
			Condition{Filters: &searchquery.Filter{Not: &searchquery.Filter{Field: "brand", Eq: "a"}}}, Search{Filters: &searchquery.Filter{Not: &searchquery.Filter{Field: "brand", Eq: "a"}}}, true),
		Entry("a context and a filter, behind the context's gate",
			Condition{Context: "mobile", Filters: &searchquery.Filter{Field: "brand", Eq: "a"}}, Search{Contexts: []string{"mobile"}, FacetFilters: map[string][]any{"brand": {"a"}}}, true),
	)
})

// FuzzMatchAsLinear draws rules and searches from any seed: the index finds what the
// linear scan finds, in its order.
func FuzzMatchAsLinear(f *testing.F) {
	f.Add(uint64(1), uint8(20))
	f.Fuzz(func(t *testing.T, seed uint64, rules uint8) {
		if m, _ := sameAsLinear(seed, 1+int(rules), 20); m != nil {
			t.Fatalf("query %q: the index gives %v, the linear scan %v", m.query, m.got, m.want)
		}
	})
}
