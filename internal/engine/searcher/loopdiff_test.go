package searcher

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"

	"github.com/blevesearch/bleve/v2/index/scorch"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/engine/mapper"
	"github.com/aislehq/aisle/internal/engine/store"
)

const diffMapping = `{"properties":{
 "title":{"type":"text","analyzer":"english","fields":{"words":{"type":"text"}}},
 "description":{"type":"text","fields":{"words":{"type":"text","analyzer":"english"}}},"brand":{"type":"keyword"},
 "category":{"type":"keyword"},"price":{"type":"float"},"stock":{"type":"long"},
 "notes":{"type":"text","analyzer":"english"}}}`

var diffWords = strings.Fields("alpine jacket trail shoe red blue light warm rain coat wool sock hiking boot")

// diffIndex builds an index of several segments (one refresh per batch), one of them of
// several thousand documents, with deleted
// and updated documents, a segment whose documents are all deleted, and documents
// without some fields; prices of more distinct values than a byte holds; descriptions
// of two values now and then, and notes with stop words.
func diffIndex(dir string, r *rand.Rand) *store.Index {
	diffTexts = nil
	ix := newIndex(dir, "diff", diffMapping)
	next := 0
	for batch := 0; batch < 5; batch++ {
		var ops []store.Op
		size := 60
		if batch == 0 {
			size = 4500 // a segment of several of the loop's windows
		}
		for i := 0; i < size; i++ {
			ops = append(ops, store.Op{Kind: store.OpIndex, ID: fmt.Sprint(next), Source: diffDoc(r, batch)})
			next++
		}
		for i := 0; i < 10 && batch > 0; i++ { // updates and deletes of earlier documents
			id := fmt.Sprint(r.Intn(next - size))
			if r.Intn(2) == 0 {
				ops = append(ops, store.Op{Kind: store.OpDelete, ID: id})
			} else {
				ops = append(ops, store.Op{Kind: store.OpIndex, ID: id, Source: diffDoc(r, batch)})
			}
		}
		write(ix, ops)
	}
	// Deletions last, so that no merge has dropped them yet: every document of the
	// second batch, and some others.
	var ops []store.Op
	for id := 4500; id < 4560; id++ {
		ops = append(ops, store.Op{Kind: store.OpDelete, ID: fmt.Sprint(id)})
	}
	for i := 0; i < 30; i++ {
		ops = append(ops, store.Op{Kind: store.OpDelete, ID: fmt.Sprint(r.Intn(next))})
	}
	write(ix, ops)
	return ix
}

// newIndex creates an index of a mapping in a store of its own in dir.
func newIndex(dir, name, mapping string) *store.Index {
	st, err := store.Open(dir)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(st.Close)
	m, err := mapper.Parse(json.RawMessage(mapping))
	Expect(err).NotTo(HaveOccurred())
	ix, err := st.Create(name, store.CreateRequest{Mapping: m})
	Expect(err).NotTo(HaveOccurred())
	return ix
}

func write(ix *store.Index, ops []store.Op) {
	_, err := ix.Write(ops)
	Expect(err).NotTo(HaveOccurred())
	Expect(ix.Refresh()).To(Succeed())
}

// deletedDocs counts the deleted documents the index's segments still hold.
func deletedDocs(ix *store.Index) uint64 {
	var n uint64
	for _, s := range segmentsNow(ix) {
		if d := s.Deleted(); d != nil {
			n += d.GetCardinality()
		}
	}
	return n
}

// segmentsNow are the segments a search of the index would read now.
func segmentsNow(ix *store.Index) []*scorch.SegmentSnapshot {
	adv, err := ix.Bleve().Advanced()
	Expect(err).NotTo(HaveOccurred())
	r, err := adv.Reader()
	Expect(err).NotTo(HaveOccurred())
	defer r.Close() //nolint:errcheck // a reader only looked at
	return r.(*scorch.IndexSnapshot).Segments()
}

func diffDoc(r *rand.Rand, batch int) []byte {
	words := func(n int) string {
		out := make([]string, 1+r.Intn(n))
		for i := range out {
			out[i] = diffWords[r.Intn(len(diffWords))]
		}
		return strings.Join(out, " ")
	}
	desc := []string{words(8) + " " + diffCode(r)}
	doc := map[string]any{"description": desc[0], "brand": fmt.Sprint("b", r.Intn(5)),
		"category": fmt.Sprint("c", r.Intn(3)), "price": float64(r.Intn(1000)) / 2, "stock": r.Intn(5),
		"notes": diffNotes(r)}
	if r.Intn(5) == 0 {
		desc = append(desc, words(4))
		doc["description"] = desc
	}
	diffTexts = append(diffTexts, desc...)
	if batch != 2 { // a segment without titles
		doc["title"] = words(3)
	}
	if r.Intn(6) == 0 {
		delete(doc, "price")
	}
	addSortFields(r, doc)
	raw, _ := json.Marshal(doc)
	return raw
}

// diffQuery is a random query of the shapes the loop runs, and some it does not.
func diffQuery(r *rand.Rand) map[string]any {
	text := func() string { return diffWords[r.Intn(len(diffWords))] + " " + diffWords[r.Intn(len(diffWords))] }
	scored := func() map[string]any {
		if r.Intn(3) == 0 {
			return variants(r)
		}
		switch r.Intn(6) {
		case 4:
			return diffPhrase(r)
		case 5:
			return diffProximity(r)
		case 0:
			mm := map[string]any{"query": text(), "fields": []any{fmt.Sprint("title^", 1+r.Intn(4)), "description"}}
			if r.Intn(2) == 0 {
				mm["type"] = []string{"best_fields", "most_fields"}[r.Intn(2)]
			}
			if r.Intn(2) == 0 {
				mm["tie_breaker"] = float64(r.Intn(10)) / 10
			}
			if r.Intn(3) == 0 {
				mm["operator"] = "and"
			}
			return map[string]any{"multi_match": mm}
		case 1:
			return map[string]any{"match": map[string]any{"description": map[string]any{"query": text() + " " + text(), "minimum_should_match": fmt.Sprint(1 + r.Intn(3))}}}
		case 2:
			return map[string]any{"term": map[string]any{"brand": map[string]any{"value": fmt.Sprint("b", r.Intn(6)), "boost": 1 + r.Intn(3)}}}
		}
		return map[string]any{"match": map[string]any{"title": text()}}
	}
	filter := func() map[string]any {
		if r.Intn(5) == 0 {
			return bandFilter(r)
		}
		switch r.Intn(7) {
		case 5:
			return diffPhrase(r)
		case 6:
			return scored()
		case 0:
			return map[string]any{"range": map[string]any{"price": map[string]any{"gte": r.Intn(300)}}}
		case 1:
			return map[string]any{"term": map[string]any{"brand": fmt.Sprint("b", r.Intn(6))}}
		case 2:
			return map[string]any{"terms": map[string]any{"category": []any{"c0", fmt.Sprint("c", r.Intn(4))}}}
		case 3:
			return map[string]any{"exists": map[string]any{"field": []string{"title", "price"}[r.Intn(2)]}}
		}
		return map[string]any{"range": map[string]any{"stock": map[string]any{"gt": r.Intn(3)}}}
	}
	b := map[string]any{}
	add := func(key string, n int, f func() map[string]any) {
		var qs []any
		for i := 0; i < n; i++ {
			qs = append(qs, f())
		}
		if n > 0 {
			b[key] = qs
		}
	}
	add("must", r.Intn(3), scored)
	add("should", r.Intn(3), scored)
	add("filter", r.Intn(3), filter)
	add("must_not", r.Intn(2), []func() map[string]any{filter, scored}[r.Intn(2)])
	if r.Intn(4) == 0 {
		b["minimum_should_match"] = r.Intn(3)
	}
	if r.Intn(4) == 0 {
		b["boost"] = 2
	}
	switch r.Intn(6) {
	case 0:
		return scored()
	case 1:
		return tiedQuery(r)
	}
	return map[string]any{"bool": b}
}

func diffRequest(r *rand.Rand) map[string]any {
	body := map[string]any{"query": diffQuery(r), "size": r.Intn(25), "from": r.Intn(8)}
	if r.Intn(2) == 0 {
		body["track_total_hits"] = true
	}
	if r.Intn(2) == 0 {
		body["sort"] = diffSort(r)
	}
	if r.Intn(3) == 0 {
		body["post_filter"] = diffPostFilter(r)
	}
	if r.Intn(3) > 0 {
		body["aggs"] = map[string]any{
			"brands": map[string]any{"terms": map[string]any{"field": "brand"}},
			"price":  map[string]any{"stats": map[string]any{"field": "price"}},
		}
	}
	return body
}

// layout names the index's segments as searched now: scorch persists and merges them in
// the background, which changes document numbers and statistics.
func layout(ix *store.Index) string {
	var out []string
	for _, s := range segmentsNow(ix) {
		out = append(out, fmt.Sprintf("%p", s.Segment()))
	}
	return strings.Join(out, ",")
}

// searchBoth runs the request with the loop and without it on the same segments, and
// returns both responses without their timing.
func searchBoth(ix *store.Index, body map[string]any) (withLoop, without string) {
	for {
		before := layout(ix)
		withLoop, without = searchEach(ix, body)
		if layout(ix) == before {
			return withLoop, without
		}
	}
}

func searchEach(ix *store.Index, body map[string]any) (withLoop, without string) {
	raw, err := json.Marshal(body)
	Expect(err).NotTo(HaveOccurred())
	run := func(on bool) string {
		out, err := searchWith(ix, raw, on)
		Expect(err).NotTo(HaveOccurred())
		return out
	}
	return run(true), run(false)
}

// searchWith runs a request with the loop or without it and returns its response without
// its timing (a search's error as its text).
func searchWith(ix *store.Index, body []byte, on bool) (string, error) {
	loopOn = on
	defer func() { loopOn = true }()
	decoded, err := DecodeBody(body)
	if err != nil {
		return "", err
	}
	req, err := ParseBody(decoded)
	if err != nil {
		return "", err
	}
	resp, err := Run(context.Background(), []*store.Index{ix}, req, Options{})
	if err != nil {
		return "error: " + err.Error(), nil
	}
	delete(resp, "took")
	out, err := json.Marshal(resp)
	return string(out), err
}

var _ = Describe("The engine's own search loop", func() {
	It("answers random searches with the hits, scores, order, totals and aggregations of bleve's searchers", func() {
		r := rand.New(rand.NewSource(GinkgoRandomSeed()))
		ix := diffIndex(GinkgoT().TempDir(), r)
		looped := map[string]int{}
		Expect(deletedDocs(ix)).To(BeNumerically(">", 0), "deleted documents the loop must skip")
		for i := 0; i < 400; i++ {
			body := diffRequest(r)
			before := loopRuns.Load()
			withLoop, without := searchBoth(ix, body)
			q, _ := json.Marshal(body)
			Expect(withLoop).To(Equal(without), "request %s", q)
			if loopRuns.Load() > before {
				looped["all"]++
				for _, k := range []string{"sort", "post_filter"} {
					if body[k] != nil {
						looped[k]++
					}
				}
			}
		}
		// Most of the random searches, sorted and post-filtered ones among them, must
		// have gone through the loop for this to say anything about it.
		GinkgoWriter.Printf("looped: %v\n", looped)
		Expect(looped["all"]).To(BeNumerically(">", 150))
		Expect(looped["sort"]).To(BeNumerically(">", 60))
		Expect(looped["post_filter"]).To(BeNumerically(">", 30))
	})
})
