package merch_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/merch"
)

// rule decodes a rule written as JSON.
func rule(body string) merch.Rule {
	GinkgoHelper()
	var r merch.Rule
	Expect(json.Unmarshal([]byte(body), &r)).To(Succeed())
	return r
}

func pinRule(id, pattern, anchoring, objectID string) merch.Rule {
	return rule(fmt.Sprintf(`{"objectID": %q, "conditions": [{"pattern": %q, "anchoring": %q}],
		"consequence": {"promote": [{"objectID": %q, "position": 1}]}}`, id, pattern, anchoring, objectID))
}

func ids(rules []merch.Rule) []string {
	out := make([]string, len(rules))
	for i, r := range rules {
		out[i] = r.ObjectID
	}
	return out
}

var _ = Describe("The rules of an index", func() {
	var svc *merch.Service
	var t merch.Target
	BeforeEach(func() {
		svc, t = newService(), newTarget()
	})

	It("are none before the first write, which creates the rules index", func() {
		page, err := svc.List(ctx, t.Names, merch.ListQuery{Limit: 20})
		Expect(err).NotTo(HaveOccurred())
		Expect(page.Rules).To(BeEmpty())
		_, err = svc.Get(ctx, t.Names, "r1")
		Expect(err).To(MatchError(merch.ErrNotFound))
		Expect(svc.Put(ctx, t, []merch.Rule{pinRule("r1", "iphone", "is", "p1")}, false)).To(Succeed())
		got, err := svc.Get(ctx, t.Names, "r1")
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(pinRule("r1", "iphone", "is", "p1")))
	})

	It("are found by their ID, description and patterns, the last word as a prefix, in objectID order", func() {
		rules := []merch.Rule{pinRule("summer-sale", "sandals", "contains", "p1"), pinRule("b-winter", "boots", "is", "p2"),
			rule(`{"objectID": "a-banner", "description": "Summer banner", "consequence": {"userData": {"banner": "x"}}}`)}
		Expect(svc.Put(ctx, t, rules, true)).To(Succeed())
		find := func(q string, offset, limit int) []string {
			page, err := svc.List(ctx, t.Names, merch.ListQuery{Query: q, Offset: offset, Limit: limit})
			Expect(err).NotTo(HaveOccurred())
			return ids(page.Rules)
		}
		Expect(find("", 0, 20)).To(Equal([]string{"a-banner", "b-winter", "summer-sale"}))
		Expect(find("summ", 0, 20)).To(Equal([]string{"a-banner", "summer-sale"}))
		Expect(find("boot", 0, 20)).To(Equal([]string{"b-winter"}))
		Expect(find("", 1, 1)).To(Equal([]string{"b-winter"}))
	})

	It("are deleted one by one, a missing one being not found", func() {
		Expect(svc.Put(ctx, t, []merch.Rule{pinRule("r1", "lamp", "is", "p1")}, false)).To(Succeed())
		Expect(svc.Delete(ctx, t, "r1")).To(Succeed())
		Expect(svc.Delete(ctx, t, "r1")).To(MatchError(merch.ErrNotFound))
		_, err := svc.Get(ctx, t.Names, "r1")
		Expect(err).To(MatchError(merch.ErrNotFound))
	})

	It("are replaced all at once: no rule of the earlier set is left", func() {
		Expect(svc.Put(ctx, t, []merch.Rule{pinRule("old", "lamp", "is", "p1")}, false)).To(Succeed())
		Expect(svc.Replace(ctx, t, []merch.Rule{pinRule("new", "desk", "is", "p2")})).To(Succeed())
		got, err := svc.Load(ctx, t.Names)
		Expect(err).NotTo(HaveOccurred())
		Expect(ids(got)).To(Equal([]string{"new"}))
		Eventually(func() int {
			raw, err := esClient.Count().Index(t.Names.Rules()).Do(ctx)
			Expect(err).NotTo(HaveOccurred())
			return int(raw.Count)
		}).Should(Equal(1), "the replaced generation is deleted")
	})

	It("never show a reader a mix of two sets while they are replaced", func() {
		set := func(tag string) []merch.Rule {
			out := make([]merch.Rule, 50)
			for i := range out {
				out[i] = rule(fmt.Sprintf(`{"objectID": "r%02d", "description": %q, "consequence": {"hide": ["x"]}}`, i, tag))
			}
			return out
		}
		Expect(svc.Replace(ctx, t, set("a"))).To(Succeed())
		var wg sync.WaitGroup
		stop := make(chan struct{})
		wg.Add(1)
		go func() {
			defer GinkgoRecover()
			defer wg.Done()
			for i := 0; i < 6; i++ {
				Expect(svc.Replace(ctx, t, set([]string{"b", "a"}[i%2]))).To(Succeed())
			}
			close(stop)
		}()
		reads := 0
		for done := false; !done; {
			select {
			case <-stop:
				done = true
			default:
			}
			got, err := svc.Load(ctx, t.Names)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(HaveLen(50))
			for _, r := range got {
				Expect(r.Description).To(Equal(got[0].Description), "one read holds rules of one set")
			}
			reads++
		}
		wg.Wait()
		Expect(reads).To(BeNumerically(">", 1))
	})

	It("hold at most 10,000: a write beyond is refused, a replacement of a held rule is not", func() {
		many := make([]merch.Rule, merch.MaxRules)
		for i := range many {
			many[i] = rule(fmt.Sprintf(`{"objectID": "r%05d", "consequence": {"hide": ["x"]}}`, i))
		}
		Expect(svc.Replace(ctx, t, many)).To(Succeed())
		err := svc.Put(ctx, t, []merch.Rule{pinRule("one-more", "lamp", "is", "p1")}, false)
		Expect(err).To(MatchError(merch.ErrTooMany))
		Expect(err.Error()).To(ContainSubstring("an index holds at most 10000 rules; it holds 10000 and the request adds 1"))
		Expect(svc.Put(ctx, t, []merch.Rule{pinRule("r00042", "lamp", "is", "p1")}, false)).To(Succeed())
		got, err := svc.Load(ctx, t.Names)
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(HaveLen(merch.MaxRules))
	})

	DescribeTable("refuse a rule the index cannot apply, writing nothing",
		func(body, want string) {
			err := svc.Put(ctx, t, []merch.Rule{rule(body)}, false)
			Expect(err).To(MatchError(merch.ErrInvalid))
			Expect(err.Error()).To(ContainSubstring(want))
			page, err := svc.List(ctx, t.Names, merch.ListQuery{Limit: 20})
			Expect(err).NotTo(HaveOccurred())
			Expect(page.Rules).To(BeEmpty())
		},
		Entry("a pattern of stop words", `{"objectID": "r", "conditions": [{"pattern": "the of", "anchoring": "is"}], "consequence": {"hide": ["x"]}}`,
			`conditions[0].pattern: "the of" holds no word the index's language keeps`),
		Entry("a removed word of punctuation", `{"objectID": "r", "consequence": {"query": {"remove": ["!!"]}}}`,
			`consequence.query.remove[0]: "!!" holds no word`),
		Entry("a boost on a field that is not filterable", `{"objectID": "r", "consequence": {"boost": [{"filter": {"field": "color", "eq": "red"}}]}}`,
			`consequence.boost[0].filter.field: "color" is not a filterable field`),
		Entry("a filter value its field cannot hold", `{"objectID": "r", "consequence": {"filters": {"field": "price", "eq": "cheap"}}}`,
			`consequence.filters.eq: must be a number`),
	)
})

var _ = Describe("Applying the rules to a search", func() {
	var svc *merch.Service
	var t merch.Target
	BeforeEach(func() {
		svc, t = newService(), newTarget()
	})

	It("matches the query as the index's language reads it, so iPhones triggers a rule for iphone", func() {
		Expect(svc.Put(ctx, t, []merch.Rule{pinRule("r1", "iphone", "is", "p1")}, false)).To(Succeed())
		for _, q := range []string{"iPhones", "IPHONE", "the iphone"} {
			out, err := svc.Apply(ctx, t, testSchema, merch.Search{Query: q})
			Expect(err).NotTo(HaveOccurred())
			Expect(out.Applied).To(Equal([]string{"r1"}), q)
		}
		out, err := svc.Apply(ctx, t, testSchema, merch.Search{Query: "iphone case"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Applied).To(BeEmpty())
	})

	It("reads the patterns again in the index's new language after a rebuild to it", func() {
		Expect(svc.Put(ctx, t, []merch.Rule{pinRule("r1", "running", "is", "p1")}, false)).To(Succeed())
		generic := t
		generic.Settings.Language = searchv1alpha1.LanguageGeneric
		out, err := svc.Apply(ctx, generic, testSchema, merch.Search{Query: "running"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Applied).To(Equal([]string{"r1"}))
		out, err = svc.Apply(ctx, generic, testSchema, merch.Search{Query: "runs"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Applied).To(BeEmpty(), "generic has no stemming: runs is another word")
	})

	It("sees this replica's own writes at once", func() {
		Expect(svc.Put(ctx, t, []merch.Rule{pinRule("r1", "lamp", "is", "p1")}, false)).To(Succeed())
		out, err := svc.Apply(ctx, t, testSchema, merch.Search{Query: "lamp"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Applied).To(Equal([]string{"r1"}))
		Expect(svc.Delete(ctx, t, "r1")).To(Succeed())
		out, err = svc.Apply(ctx, t, testSchema, merch.Search{Query: "lamp"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Applied).To(BeEmpty())
	})

	It("sees another replica's writes in the first search after they were answered, each time", func() {
		other := newService()
		// The reader keeps searching, so that its cached pointer is always in use.
		applied := func() []string {
			out, err := svc.Apply(ctx, t, testSchema, merch.Search{Query: "lamp"})
			Expect(err).NotTo(HaveOccurred())
			return out.Applied
		}
		Expect(applied()).To(BeEmpty())
		for round := range 5 {
			Expect(other.Put(ctx, t, []merch.Rule{pinRule("r1", "lamp", "is", "p1")}, false)).To(Succeed())
			Expect(applied()).To(Equal([]string{"r1"}), "round %d, after the write", round)
			Expect(other.Delete(ctx, t, "r1")).To(Succeed())
			Expect(applied()).To(BeEmpty(), "round %d, after the deletion", round)
			Expect(other.Replace(ctx, t, []merch.Rule{pinRule("r2", "lamp", "is", "p2")})).To(Succeed())
			Expect(applied()).To(Equal([]string{"r2"}), "round %d, after the replacement", round)
			Expect(other.Replace(ctx, t, nil)).To(Succeed())
			Expect(applied()).To(BeEmpty(), "round %d, after the emptying replacement", round)
		}
	})

	It("applies a rule only within its validity windows, by the service's clock", func() {
		Expect(svc.Put(ctx, t, []merch.Rule{rule(`{"objectID": "sale", "validity": [{"from": "2030-01-01T00:00:00Z", "until": "2030-01-02T00:00:00Z"}],
			"consequence": {"userData": {"banner": "sale"}}}`)}, false)).To(Succeed())
		DeferCleanup(func() { clock.Store(nil) })
		applied := func(at string) []string {
			ts, err := time.Parse(time.RFC3339, at)
			Expect(err).NotTo(HaveOccurred())
			clock.Store(&ts)
			out, err := svc.Apply(ctx, t, testSchema, merch.Search{Query: "anything"})
			Expect(err).NotTo(HaveOccurred())
			return out.Applied
		}
		Expect(applied("2029-12-31T23:59:59Z")).To(BeEmpty())
		Expect(applied("2030-01-01T00:00:00Z")).To(Equal([]string{"sale"}))
		Expect(applied("2030-01-01T23:59:59Z")).To(Equal([]string{"sale"}))
		Expect(applied("2030-01-02T00:00:00Z")).To(BeEmpty())
	})

	It("removes words as they are written in the query, whatever their form", func() {
		Expect(svc.Put(ctx, t, []merch.Rule{rule(`{"objectID": "r", "conditions": [{"pattern": "cheap", "anchoring": "contains"}],
			"consequence": {"query": {"remove": ["cheap"]}}}`)}, false)).To(Succeed())
		for q, want := range map[string]string{"Cheapest red shoes": "Cheapest red shoes", "red CHEAP shoes": "red shoes",
			"Crème brûlée cheap ": "Crème brûlée ", "cheap": ""} {
			out, err := svc.Apply(ctx, t, testSchema, merch.Search{Query: q})
			Expect(err).NotTo(HaveOccurred())
			Expect(out.Query).To(Equal(want), q)
		}
	})
})
