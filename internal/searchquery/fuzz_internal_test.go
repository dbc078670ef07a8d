package searchquery

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

var fuzzRankSettings = searchv1alpha1.IndexSettings{
	SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 3}, {Path: "brand", Weight: 2}, {Path: "description"}},
	Synonyms: []searchv1alpha1.SynonymGroup{{Terms: []string{"tv", "television set"}},
		{Type: searchv1alpha1.SynonymAltCorrection, Word: "addidas", Corrections: []string{"adidas"}, Typos: 2}},
	Ranking: []searchv1alpha1.RankingCriterion{"words", "custom", "typo", "proximity", "attribute", "exact"},
}

// FuzzQueryWords: any query text becomes at most MaxWords words in units that cover
// them in order, bands whose product keeps every score exact in float32, levels that
// decode back as they were encoded, and a query that encodes. Seeds are in
// testdata/fuzz/FuzzQueryWords.
func FuzzQueryWords(f *testing.F) {
	f.Add("walnut desk unicornium", uint8(0), uint8(1))
	f.Fuzz(func(t *testing.T, q string, strategy, drop uint8) {
		req := Request{Q: q, MatchingStrategy: []string{StrategyAll, StrategyLast, StrategyAny}[strategy%3]}
		tp := newTextPlan(req, KeyedAccess(fuzzRankSettings), nil, int(drop%12), []searchv1alpha1.RankingCriterion{critCustom})
		n := len(tp.words.kept)
		if n > MaxWords {
			t.Fatalf("%q: %d words kept", q, n)
		}
		next := 0
		for _, u := range tp.units {
			if u.first != next || u.last < u.first {
				t.Fatalf("%q: units %v do not cover the words in order", q, tp.units)
			}
			next = u.last + 1
		}
		if next != n {
			t.Fatalf("%q: units cover %d of %d words", q, next, n)
		}
		product := int64(1)
		for _, b := range tp.radix.bands {
			product *= b.size
		}
		if product > scoreLimit {
			t.Fatalf("%q: bands of %d levels", q, product)
		}
		top := levels{words: n, typo: 2 * n, attribute: n * (tp.ranks - 1), exact: n}
		got := tp.radix.decode(float64(float32(tp.radix.boost(top))))
		for c, want := range map[searchv1alpha1.RankingCriterion]int{critWords: top.words, critTypo: top.typo, critAttribute: top.attribute, critExact: top.exact} {
			if tp.radix.has(c) && got[c] != int64(want) {
				t.Fatalf("%q: %s decodes to %d, not %d", q, c, got[c], want)
			}
		}
		if _, err := json.Marshal(tp.query(nil)); err != nil {
			t.Fatalf("%q: %v", q, err)
		}
	})
}

// FuzzFacetMatch: matching any facet query against any value never panics, and the
// value's highlighted form is the value, escaped, with marks around parts of it.
func FuzzFacetMatch(f *testing.F) {
	f.Add("new bal", "New Balance")
	f.Add("crème", "CRÈME Brûlée & <b>")
	f.Add("ßtr", "Straße")
	f.Fuzz(func(t *testing.T, query, value string) {
		if !utf8.ValidString(value) || !utf8.ValidString(query) {
			return
		}
		m := newFacetMatcher(query, typoRulesOf(fuzzRankSettings, nil))
		fm, ok := m.match(value)
		if !ok {
			return
		}
		if got := plainText(fm.highlight(value)); got != value {
			t.Fatalf("%q in %q: highlighted %q reads %q", query, value, fm.highlight(value), got)
		}
	})
}
