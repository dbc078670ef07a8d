package merch

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
)

// benchRules are 10,000 rules as a large shop may hold them: patterns of one to three
// words of a 2,000-word vocabulary under every anchoring, one in twenty without a
// pattern (a seasonal boost) and one in ten with a validity window; their consequences
// promote, hide, boost and filter.
func benchRules() ([]ruleDoc, []string) { return benchRulesWith(false) }

// benchRulesWith is benchRules; with conditioned, one condition in five also holds a
// filter on one of 50 brands and one in seven a context of 20 (the rules without a
// pattern among them: a category page's or a context's rules).
func benchRulesWith(conditioned bool) ([]ruleDoc, []string) {
	r := rand.New(rand.NewPCG(1, 1))
	vocab := make([]string, 2000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%d", i)
	}
	anchorings := []string{Is, StartsWith, EndsWith, Contains}
	from, until := time.Now().Add(-time.Hour), time.Now().Add(time.Hour)
	docs := make([]ruleDoc, MaxRules)
	for i := range docs {
		words := make([]string, 1+r.IntN(3))
		for j := range words {
			words[j] = vocab[r.IntN(len(vocab))]
		}
		pattern := strings.Join(words, " ")
		rule := Rule{ObjectID: fmt.Sprintf("r%05d", i), Consequence: Consequence{
			Promote: []Promotion{{ObjectID: fmt.Sprintf("p%d", i), Position: 1 + r.IntN(5)}},
			Hide:    []string{fmt.Sprintf("h%d", i)},
			Boost:   []Weighted{{Filter: &searchquery.Filter{Field: "brand", Eq: fmt.Sprintf("b%d", i%50)}}},
			Filters: &searchquery.Filter{Field: "price", Range: &searchquery.Range{LT: float64(100 + i%400)}},
		}}
		t := terms{Patterns: [][]string{words}}
		if i%20 == 0 {
			rule.Conditions, t.Patterns = nil, nil
		} else {
			rule.Conditions = []Condition{{Pattern: &pattern, Anchoring: anchorings[i%4]}}
		}
		if conditioned {
			rule.Conditions = append(rule.Conditions, Condition{})[:max(len(rule.Conditions), 1)]
			if i%5 == 0 {
				rule.Conditions[0].Filters = &searchquery.Filter{Field: "brand", Eq: fmt.Sprintf("b%d", i%50)}
			}
			if i%7 == 0 {
				rule.Conditions[0].Context = fmt.Sprintf("c%d", i%20)
			}
			if len(t.Patterns) == 0 {
				t.Patterns = [][]string{nil}
			}
		}
		if i%10 == 0 {
			rule.Validity = []Window{{From: &from, Until: &until}}
		}
		docs[i] = ruleDoc{RuleID: rule.ObjectID, Rule: rule, Terms: t}
	}
	return docs, vocab
}

var benchSettings = searchv1alpha1.IndexSettings{FilterableFields: []searchv1alpha1.FieldPath{"brand", "price"}}

var benchSchema = searchquery.Schema{
	"brand": {Path: "brand", Kind: searchquery.KindString, Keyword: "brand.keyword"},
	"price": {Path: "price", Kind: searchquery.KindNumber, Keyword: "price"},
}

// BenchmarkApplyTenThousandRules is the work a search does with 10,000 rules once
// they are cached and its query analysed: match its words, order the rules that apply
// and build what they change (the API-level cost is measured by test/searchbench).
func BenchmarkApplyTenThousandRules(b *testing.B) {
	benchApply(b, false, Search{})
}

// BenchmarkApplyTenThousandConditionedRules is BenchmarkApplyTenThousandRules with
// conditions on filters and contexts, searched with a brand selected and two contexts.
func BenchmarkApplyTenThousandConditionedRules(b *testing.B) {
	benchApply(b, true, Search{FacetFilters: map[string][]any{"brand": {"b5"}}, Filters: &searchquery.Filter{Field: "price", Range: &searchquery.Range{LT: 50.0}},
		Contexts: []string{"c0", "c7"}})
}

func benchApply(b *testing.B, conditioned bool, search Search) {
	docs, vocab := benchRulesWith(conditioned)
	set := compile(docs)
	queries := [][]string{{vocab[3]}, {vocab[10], vocab[20]}, {vocab[7], vocab[8], vocab[9], vocab[11], vocab[12]},
		strings.Fields(strings.Repeat(vocab[1]+" ", 10))}
	now := time.Now()
	b.ReportAllocs()
	b.ResetTimer()
	applied := 0
	for i := 0; i < b.N; i++ {
		q := queries[i%len(queries)]
		out := outcome(strings.Join(q, " "), nil, set.Match(q, heldBy(search), now), benchSettings, benchSchema)
		applied += len(out.Applied)
	}
	b.ReportMetric(float64(applied)/float64(b.N), "rules/op")
}

// BenchmarkCompileTenThousandRules is what a replica does when an index's rules change.
func BenchmarkCompileTenThousandRules(b *testing.B) {
	docs, _ := benchRules()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		compile(docs)
	}
}

// BenchmarkPreviewOverTenThousandRules is what a preview (POST /rules/{ruleId}/preview)
// adds to each of its two searches on an index of 10,000 rules: the set compiled again
// with the draft in the saved rule's place. A shopper's search never pays it.
func BenchmarkPreviewOverTenThousandRules(b *testing.B) {
	docs, _ := benchRules()
	set := compile(docs)
	draft := docs[42]
	with := &Overlay{id: draft.RuleID, draft: &draft}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		with.over(set)
	}
}
