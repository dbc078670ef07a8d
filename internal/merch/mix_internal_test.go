package merch

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/aislehq/aisle/internal/searchquery"
)

// mixedRules are n rules as a shop with category pages and campaigns holds them,
// drawn from r: a third on the query alone (one to three words of a vocabulary of
// words, under every anchoring), a sixth on the query within a brand, a fifth for
// category pages (the empty query, or no pattern, and a category: one in ten of them
// also a brand or a price range), a tenth for a context (a landing page or a device,
// some of them within a category), a tenth on the query within a context, and the
// rest without a pattern on other kinds of filters (an or of brands, a not, an exists);
// one in eight has a validity window, half of them over. A few have two conditions,
// one has none. Their terms are their words, as the generic language reads them.
func mixedRules(r *rand.Rand, n int, m mix, now time.Time) []ruleDoc {
	anchorings := []string{Is, StartsWith, EndsWith, Contains}
	docs := make([]ruleDoc, n)
	for i := range docs {
		id := fmt.Sprintf("m%05d", r.IntN(10*n)*10+i%10)
		if i == 0 {
			docs[i] = doc(id)
			continue
		}
		conds := []Condition{m.condition(r, i, anchorings)}
		if r.IntN(25) == 0 {
			conds = append(conds, m.condition(r, i+1, anchorings))
		}
		d := doc(id, conds...)
		d.Rule.ObjectID, d.RuleID = fmt.Sprintf("%s-%d", id, i), fmt.Sprintf("%s-%d", id, i)
		if r.IntN(8) == 0 {
			from, until := now.Add(-time.Hour), now.Add(time.Hour)
			if r.IntN(2) == 0 {
				until = now.Add(-time.Minute)
			}
			d.Rule.Validity = []Window{{From: &from, Until: &until}}
		}
		docs[i] = d
	}
	return docs
}

// mix is how many words, brands, categories, contexts and other fields rules and
// searches draw from.
type mix struct{ words, brands, categories, contexts, fields int }

// shop is the mix of a large shop's 10,000 rules.
var shop = mix{words: 3000, brands: 50, categories: 300, contexts: 40, fields: 20}

func (m mix) brand(r *rand.Rand) string    { return fmt.Sprintf("b%d", r.IntN(m.brands)) }
func (m mix) category(r *rand.Rand) string { return fmt.Sprintf("cat%d", r.IntN(m.categories)) }
func (m mix) context(r *rand.Rand) string  { return fmt.Sprintf("ctx%d", r.IntN(m.contexts)) }
func (m mix) field(r *rand.Rand) string    { return fmt.Sprintf("f%d", r.IntN(m.fields)) }

func (m mix) condition(r *rand.Rand, i int, anchorings []string) Condition {
	word := func() string { return fmt.Sprintf("w%d", r.IntN(m.words)) }
	words := func() string {
		ws := make([]string, 1+r.IntN(3))
		for j := range ws {
			ws[j] = word()
		}
		return strings.Join(ws, " ")
	}
	brand := &searchquery.Filter{Field: "brand", Eq: m.brand(r)}
	category := &searchquery.Filter{Field: "categories", Eq: m.category(r)}
	context := m.context(r)
	switch k := r.IntN(60); {
	case k < 20:
		return cond(words(), anchorings[i%4])
	case k < 30:
		c := cond(words(), anchorings[i%4])
		c.Filters = brand
		return c
	case k < 42:
		c := Condition{Filters: category}
		if k%2 == 0 {
			c = cond("", Is)
			c.Filters = category
		}
		if k == 32 {
			c.Filters = &searchquery.Filter{And: []searchquery.Filter{*category, *brand}}
		}
		if k == 34 {
			c.Filters = &searchquery.Filter{And: []searchquery.Filter{*category, {Field: "price", Range: &searchquery.Range{LT: float64(10 * r.IntN(50))}}}}
		}
		return c
	case k < 48:
		c := Condition{Context: context}
		if k == 47 {
			c.Filters = category
		}
		return c
	case k < 54:
		c := cond(words(), anchorings[i%4])
		c.Context = context
		return c
	case k < 56:
		return Condition{Filters: &searchquery.Filter{Or: []searchquery.Filter{*brand, {Field: "brand", Eq: m.brand(r)}}}}
	case k < 58:
		return Condition{Filters: &searchquery.Filter{Not: brand}}
	default:
		yes := r.IntN(2) == 0
		switch r.IntN(3) {
		case 0:
			return Condition{Filters: &searchquery.Filter{Field: m.field(r), Exists: &yes}}
		case 1:
			return Condition{Filters: &searchquery.Filter{Field: "size", Eq: float64(r.IntN(4))}}
		}
		return Condition{Filters: &searchquery.Filter{Field: "gift", Eq: yes}}
	}
}

// mixedSearch is a search as shoppers send them, drawn from r: words of the vocabulary
// (or none: a category page), facet filters on a category and a brand, filters on a
// price or a brand, and contexts, each or not.
func (m mix) search(r *rand.Rand) ([]string, Search) {
	q := make([]string, r.IntN(5))
	for i := range q {
		q[i] = fmt.Sprintf("w%d", r.IntN(2*m.words))
	}
	s := Search{Query: strings.Join(q, " ")}
	if r.IntN(2) == 0 {
		s.FacetFilters = map[string][]any{"categories": {m.category(r)}}
		if r.IntN(3) == 0 {
			s.FacetFilters["brand"] = []any{m.brand(r), m.brand(r)}[:1+r.IntN(2)]
		}
	}
	switch r.IntN(4) {
	case 0:
		s.Filters = &searchquery.Filter{Field: "price", Range: &searchquery.Range{LT: float64(10 * r.IntN(50))}}
	case 1:
		s.Filters = &searchquery.Filter{And: []searchquery.Filter{{Field: "brand", Eq: m.brand(r)}, {Field: m.field(r), Eq: "x"}}}
	case 2:
		s.Filters = &searchquery.Filter{Or: []searchquery.Filter{{Field: "brand", Eq: m.brand(r)}, {Field: "brand", In: []any{m.brand(r)}}}}
	}
	if r.IntN(3) == 0 {
		size := &searchquery.Filter{Field: "size", In: []any{r.IntN(4), -0.0}}
		s.Filters = &searchquery.Filter{And: append(conjuncts(s.Filters), *size, searchquery.Filter{Field: "gift", Eq: r.IntN(2) == 0})}
	}
	for range r.IntN(3) {
		s.Contexts = append(s.Contexts, m.context(r))
	}
	return q, s
}

// BenchmarkMatchTenThousandMixedRules is what matching 10,000 rules of every kind
// (mixedRules) adds to a search once they are cached and its query analysed (without
// rules, Apply returns before matching): find the rules that apply and build what
// they change.
func BenchmarkMatchTenThousandMixedRules(b *testing.B) {
	now := time.Now()
	set := compile(mixedRules(rand.New(rand.NewPCG(7, 7)), MaxRules, shop, now))
	r := rand.New(rand.NewPCG(8, 8))
	type search struct {
		q []string
		s Search
	}
	searches := make([]search, 256)
	for i := range searches {
		q, s := shop.search(r)
		// One search in four holds a pattern's words: most queries' words are in none.
		for i%4 == 0 {
			if p := set.rules[r.IntN(len(set.rules))].rule.Conditions; len(p) > 0 && p[0].Pattern != nil {
				q = strings.Fields(*p[0].Pattern)
				break
			}
		}
		searches[i] = search{q, s}
	}
	b.ReportAllocs()
	b.ResetTimer()
	applied := 0
	for i := 0; i < b.N; i++ {
		s := searches[i%len(searches)]
		out := outcome(strings.Join(s.q, " "), nil, set.Match(s.q, heldBy(s.s), now), benchSettings, benchSchema)
		applied += len(out.Applied)
	}
	b.ReportMetric(float64(applied)/float64(b.N), "rules/op")
}
