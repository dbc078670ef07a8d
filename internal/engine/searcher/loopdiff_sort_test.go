package searcher

import (
	"encoding/json"
	"fmt"
	"math/rand"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/engine/store"
)

// addSortFields gives a document of the differential index the fields random sorts
// rank by: several values of one, few distinct values of another (ties), each missing
// from some documents. They are mapped dynamically (long, date, boolean), as ES maps a
// record's new fields.
func addSortFields(r *rand.Rand, doc map[string]any) {
	sizes := make([]any, r.Intn(4)) // none, one or several values
	for i := range sizes {
		sizes[i] = 30 + r.Intn(20)
	}
	if len(sizes) > 0 {
		doc["sizes"] = sizes
	}
	if r.Intn(5) > 0 {
		doc["rank"] = r.Intn(4)
	}
	if r.Intn(4) > 0 {
		doc["released"] = fmt.Sprintf("2024-0%d-1%d", 1+r.Intn(9), r.Intn(10))
	}
	if r.Intn(3) > 0 {
		doc["onsale"] = r.Intn(2) == 0
	}
	if r.Intn(8) == 0 {
		delete(doc, "brand")
	}
}

// tiedQuery is a query of few distinct scores: keyword terms score alike wherever they
// match, as a catalog search's constant_score bands do.
func tiedQuery(r *rand.Rand) map[string]any {
	term := func(field, prefix string, n int) map[string]any {
		return map[string]any{"term": map[string]any{field: fmt.Sprint(prefix, r.Intn(n))}}
	}
	should := []any{term("brand", "b", 6), term("category", "c", 4)}
	if r.Intn(2) == 0 {
		should = append(should, term("brand", "b", 6))
	}
	return map[string]any{"bool": map[string]any{"should": should, "minimum_should_match": 1}}
}

// sortFields are the fields random sorts rank by, with their unmapped_type when they are
// not mapped.
var sortFields = []struct{ name, unmapped string }{
	{"price", ""}, {"stock", ""}, {"brand", ""}, {"category", ""}, {"sizes", ""},
	{"rank", ""}, {"released", ""}, {"onsale", ""}, {"gone", "long"}, {"absent", "keyword"},
}

// diffSort is a random sort: mostly _score descending first, as a catalog search
// sorts, then one to three field clauses of random orders and missing options.
func diffSort(r *rand.Rand) []any {
	var out []any
	switch r.Intn(8) {
	case 0, 1, 2:
		out = append(out, "_score")
	case 3, 4:
		out = append(out, map[string]any{"_score": map[string]any{"order": "desc"}})
	case 5:
		out = append(out, map[string]any{"_score": "asc"})
	}
	for range 1 + r.Intn(3) {
		out = append(out, sortClause(r))
	}
	return out
}

func sortClause(r *rand.Rand) map[string]any {
	f := sortFields[r.Intn(len(sortFields))]
	order := []string{"asc", "desc"}[r.Intn(2)]
	if f.unmapped == "" && r.Intn(3) == 0 {
		return map[string]any{f.name: order}
	}
	opts := map[string]any{"order": order}
	if r.Intn(2) == 0 {
		opts["missing"] = []string{"_first", "_last"}[r.Intn(2)]
	}
	if f.unmapped != "" {
		opts["unmapped_type"] = f.unmapped
	}
	return map[string]any{f.name: opts}
}

// diffPostFilter is a random post_filter of the kinds a faceted search sends, and a
// query that is no column predicate.
func diffPostFilter(r *rand.Rand) map[string]any {
	switch r.Intn(6) {
	case 5:
		return map[string]any{"match": map[string]any{"description": diffWords[r.Intn(len(diffWords))]}}
	case 0:
		return map[string]any{"term": map[string]any{"brand": fmt.Sprint("b", r.Intn(6))}}
	case 1:
		return map[string]any{"terms": map[string]any{"category": []any{"c0", fmt.Sprint("c", r.Intn(4))}}}
	case 2:
		return map[string]any{"range": map[string]any{"price": map[string]any{"lte": 100 + r.Intn(400)}}}
	case 3:
		return map[string]any{"bool": map[string]any{"must_not": []any{
			map[string]any{"terms": map[string]any{"brand": []any{fmt.Sprint("b", r.Intn(5))}}}}}}
	}
	return map[string]any{"bool": map[string]any{"filter": []any{
		map[string]any{"term": map[string]any{"onsale": r.Intn(2) == 0}},
		map[string]any{"range": map[string]any{"sizes": map[string]any{"gte": 35 + r.Intn(10)}}}}}}
}

var _ = Describe("The engine's own search loop, sorting", func() {
	It("leaves to bleve a sort by a keyword field holding an empty value, which bleve ranks below a missing one", func() {
		ix := newIndex(GinkgoT().TempDir(), "empty", diffMapping)
		var ops []store.Op
		for i, brand := range []any{"b1", "", nil, "b0", ""} {
			doc, _ := json.Marshal(map[string]any{"title": "red shoe", "brand": brand})
			ops = append(ops, store.Op{Kind: store.OpIndex, ID: fmt.Sprint(i), Source: doc})
		}
		write(ix, ops)
		body := map[string]any{"query": map[string]any{"match": map[string]any{"title": "shoe"}},
			"sort": []any{"_score", map[string]any{"brand": "desc"}}}
		before := loopRuns.Load()
		withLoop, without := searchBoth(ix, body)
		Expect(withLoop).To(Equal(without))
		Expect(loopRuns.Load()).To(Equal(before))
		body["sort"] = []any{"_score", map[string]any{"category": "desc"}}
		searchBoth(ix, body)
		// More than once when searchBoth searches again, after a merge.
		Expect(loopRuns.Load()).To(BeNumerically(">", before), "a keyword field without an empty value")
	})

	DescribeTable("sorts from columns only the terms bleve ranks apart from missing values",
		func(terms []string, want bool) {
			raw := make([][]byte, len(terms))
			for i, t := range terms {
				raw[i] = []byte(t)
			}
			Expect(termsBetweenMissing(raw)).To(Equal(want))
		},
		Entry("no term", nil, true),
		Entry("plain terms", []string{"a", "b"}, true),
		Entry("a term starting with a zero byte", []string{"\x00a", "b"}, true),
		Entry("an empty term", []string{"", "b"}, false),
		Entry("a zero byte", []string{"\x00", "b"}, false),
		Entry("U+10FFFF repeated", []string{"a", "\U0010FFFF\U0010FFFF\U0010FFFF"}, false),
	)
})
