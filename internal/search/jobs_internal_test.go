package search

import (
	"encoding/json"
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/merch"
	"github.com/aislehq/aisle/internal/searchquery"
)

// The driver's steps, without a backend: each answer moves a search to its next round or
// to its page, as the rounds it would send say.
var _ = Describe("A search's rounds", func() {
	settings := searchv1alpha1.IndexSettings{
		SearchableFields: []searchv1alpha1.SearchableField{{Path: "name"}},
		Distinct:         &searchv1alpha1.DistinctSetting{Field: "group", Limit: 1},
	}
	schema := searchquery.Schema{
		"name":  {Path: "name", Kind: searchquery.KindString, Type: "text", Keyword: "name.keyword"},
		"group": {Path: "group", Kind: searchquery.KindString, Type: "keyword", Keyword: "group"},
	}
	// start plans req (JSON) with pins promoted by the rules, as prepare does.
	start := func(req string, pins ...merch.Pin) *search {
		var r searchquery.Request
		Expect(json.Unmarshal([]byte(req), &r)).To(Succeed())
		spec, err := searchquery.Decide(r, searchquery.KeyedAccess(settings), schema)
		Expect(err).NotTo(HaveOccurred())
		out := merch.Outcome{Query: r.Q}
		for _, p := range pins {
			out.Pins = append(out.Pins, p)
			out.RuleChanges = &searchquery.RuleChanges{Promoted: append(promoted(out), p.ObjectID)}
		}
		out = out.Covering(spec.Page)
		j, err := newJob("alias", spec.With(searchquery.Inputs{RuleChanges: out.RuleChanges}), out)
		Expect(err).NotTo(HaveOccurred())
		return j
	}

	// A round is named by what it sends: "pinned" (the promoted records), "organic from+size"
	// (a body of organic hits), "merge" (a distinct search's two merge bodies).
	DescribeTable("takes each answer to its next round, or to its page",
		func(j func() *search, answers [][]string, rounds []string, page []string, total int) {
			s := j()
			var seen []string
			for i, a := range answers {
				Expect(s.bodies()).NotTo(BeNil(), "answer %d came after the search ended", i)
				seen = append(seen, describe(s.cur.next))
				bodies, errs := make([][]byte, len(a)), make([]error, len(a))
				Expect(a).To(HaveLen(len(s.bodies())), "round %d sends %d bodies", i, len(s.bodies()))
				for k, raw := range a {
					if raw == "" {
						errs[k] = es.ErrNotFound
						continue
					}
					bodies[k] = []byte(raw)
				}
				s.advance(bodies, errs)
			}
			Expect(s.bodies()).To(BeNil())
			res, err := result(s)
			Expect(err).NotTo(HaveOccurred())
			Expect(seen).To(Equal(rounds))
			Expect(ids(res.Hits)).To(Equal(page))
			Expect(res.Total).To(BeEquivalentTo(total))
		},
		Entry("a search is one round", func() *search { return start(`{"q": "shoe", "distinct": false}`) },
			[][]string{{answer(3, "a", "b", "c")}}, []string{"organic 0+20"}, []string{"a", "b", "c"}, 3),
		Entry("an index without a physical index has no hits", func() *search { return start(`{"q": "shoe", "distinct": false}`) },
			[][]string{{""}}, []string{"organic 0+20"}, []string{}, 0),
		Entry("matchingStrategy all that matches nothing drops its last word",
			func() *search { return start(`{"q": "red shoe", "matchingStrategy": "all", "distinct": false}`) },
			[][]string{{answer(0)}, {answer(1, "a")}}, []string{"organic 0+20", "organic 0+20"}, []string{"a"}, 1),
		Entry("matchingStrategy all drops words until one matches or one is left",
			func() *search { return start(`{"q": "red blue shoe", "matchingStrategy": "all", "distinct": false}`) },
			[][]string{{answer(0)}, {answer(0)}, {answer(0)}}, []string{"organic 0+20", "organic 0+20", "organic 0+20"}, []string{}, 0),
		Entry("promoted records are fetched beside the organic hits and take their places",
			func() *search {
				return start(`{"q": "shoe", "limit": 3, "distinct": false}`, merch.Pin{ObjectID: "p", Position: 2})
			},
			[][]string{{answer(1, "p"), answer(5, "a", "b", "c")}}, []string{"pinned, organic 0+3"}, []string{"a", "p", "b"}, 6),
		Entry("a page past the organic hits asks for the window its promoted records follow",
			func() *search {
				return start(`{"q": "shoe", "offset": 3, "limit": 3, "distinct": false}`,
					merch.Pin{ObjectID: "p", Position: 4}, merch.Pin{ObjectID: "q", Position: 5})
			},
			// Two organic hits: p and q follow them (a, b, p, q), so the page's organic hits
			// start at 2, before the window 3+3 the first round fetched.
			[][]string{{answer(2, "p", "q"), answer(2)}, {answer(2)}}, []string{"pinned, organic 3+3", "organic 2+2"}, []string{"q"}, 4),
		Entry("a distinct search whose records without the field match sends its merge round",
			func() *search { return start(`{"q": "shoe"}`) },
			[][]string{{groupedAnswer(2, 1, "a")}, {answer(1, "a"), answer(1, "z")}}, []string{"organic 0+20", "merge"}, []string{"a", "z"}, 3),
	)
})

func promoted(out merch.Outcome) []string {
	if out.RuleChanges == nil {
		return nil
	}
	return out.RuleChanges.Promoted
}

func describe(r *round) string {
	var parts []string
	if r.pinned {
		parts = append(parts, "pinned")
	}
	if r.first != nil {
		m := r.organic.Bodies.Merge
		Expect(m).NotTo(BeNil(), "a merge round of a plan compiled without its bodies")
		Expect(r.bodies[len(r.bodies)-2:]).To(Equal([][]byte{m.Grouped, m.Single}), "a merge round sends the bodies Compile built")
		return strings.Join(append(parts, "merge"), ", ")
	}
	var body struct{ From, Size int }
	Expect(json.Unmarshal(r.organic.Bodies.Search, &body)).To(Succeed())
	return strings.Join(append(parts, fmt.Sprintf("organic %d+%d", body.From, body.Size)), ", ")
}

func ids(hits []searchquery.Hit) []string {
	out := []string{}
	for _, h := range hits {
		out = append(out, h.ObjectID)
	}
	return out
}

// answer is a backend answer of total hits, holding the records of ids.
func answer(total int, ids ...string) string {
	return fmt.Sprintf(`{"hits": {"total": {"value": %d}, "hits": [%s]}}`, total, hitList(ids))
}

// groupedAnswer is a distinct search's answer: groups counted, records without the
// field missing.
func groupedAnswer(groups, missing int, ids ...string) string {
	return fmt.Sprintf(`{"hits": {"total": {"value": %d}, "hits": [%s]}, "aggregations": {"groups": {"n": {"value": %d}, "missing": {"doc_count": %d}}}}`,
		groups+missing, hitList(ids), groups, missing)
}

func hitList(ids []string) string {
	var hits []string
	for _, id := range ids {
		hits = append(hits, fmt.Sprintf(`{"_id": %q, "_source": {"objectID": %q}, "sort": [1, %q]}`, id, id, id))
	}
	return strings.Join(hits, ",")
}
