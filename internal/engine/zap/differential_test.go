package zap_test

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"sort"
	"strings"

	"github.com/blevesearch/bleve/v2/document"
	index "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	zapx "github.com/blevesearch/zapx/v17"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/engine/mapper/mappertest"
)

var _ = Describe("A new segment's inverted index", func() {
	// The engine inverts a new segment's documents itself (invert.go); zapx v17, still
	// linked through bleve, inverts them as upstream does. Whatever their layouts, both
	// must give every term of every field the same postings, frequencies, norms and
	// positions, and every document the same doc values.
	It("reads back as zapx's does, term by term and document by document", func() {
		ours, _, err := plugin.New(catalogDocs())
		Expect(err).NotTo(HaveOccurred())
		theirs, _, err := (&zapx.ZapPlugin{}).New(catalogDocs())
		Expect(err).NotTo(HaveOccurred())
		Expect(ours.Count()).To(Equal(theirs.Count()))
		Expect(ours.Fields()).To(Equal(theirs.Fields()))
		for _, field := range theirs.Fields() {
			Expect(inverted(ours, field)).To(Equal(inverted(theirs, field)), field)
		}
		for doc := uint64(0); doc < theirs.Count(); doc++ {
			Expect(docValues(ours, doc)).To(Equal(docValues(theirs, doc)), "document %d", doc)
		}
	})
})

const catalogMapping = `{"properties":{
 "sku":{"type":"keyword"},"title":{"type":"text","fields":{"keyword":{"type":"keyword"}}},
 "description":{"type":"text"},"brand":{"type":"keyword"},"price":{"type":"float"},
 "stock":{"type":"long"},"created":{"type":"date"},"tags":{"type":"keyword"},
 "notes":{"type":"text"},"active":{"type":"boolean"}}}`

// catalogDocs builds and analyzes 2,500 products with the engine's mapper, as a bulk and
// a refresh do: shared and unique keywords, keyword and text arrays, numbers, dates, text
// with repeated words and missing fields, and documents with two bleve fields of one name.
func catalogDocs() []index.Document {
	b, err := mappertest.Builder(json.RawMessage(catalogMapping))
	Expect(err).NotTo(HaveOccurred())
	r := rand.New(rand.NewSource(25))
	words := func(n, vocab int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = fmt.Sprintf("w%d", r.Intn(vocab))
		}
		return strings.Join(w, " ")
	}
	var docs []index.Document
	for i := 0; i < 2500; i++ {
		src := map[string]any{"sku": fmt.Sprintf("SKU-%05d", i), "brand": fmt.Sprintf("b%d", r.Intn(30))}
		if i%7 != 0 {
			src["title"] = words(1+r.Intn(5), 300)
			src["description"] = words(r.Intn(60), 2000)
			src["price"] = float64(r.Intn(10000)) / 100
			src["created"] = fmt.Sprintf("2024-%02d-%02dT10:00:00Z", 1+r.Intn(12), 1+r.Intn(28))
		}
		if i%3 == 0 {
			src["tags"] = []string{words(1, 50), words(1, 50), "sale"}
			src["notes"] = []string{words(3, 40), words(2, 40)}
			src["stock"], src["active"] = r.Intn(5), i%2 == 0
		}
		d, err := mappertest.Analyzed(b, i, src)
		Expect(err).NotTo(HaveOccurred())
		if i%11 == 0 { // two keyword fields of one name, counted together
			f := document.NewTextFieldWithIndexingOptions("brand", nil, []byte("extra"), keywordOpts)
			f.Analyze()
			d.(*document.Document).AddField(f)
		}
		docs = append(docs, d)
	}
	return docs
}

// inverted lists every posting of every term of field: term, document, frequency, norm
// and positions.
func inverted(s segment.Segment, field string) []string {
	dict, err := s.Dictionary(field)
	Expect(err).NotTo(HaveOccurred())
	var out []string
	terms := dict.AutomatonIterator(nil, nil, nil)
	for e, err := terms.Next(); e != nil || err != nil; e, err = terms.Next() {
		Expect(err).NotTo(HaveOccurred())
		pl, err := dict.PostingsList([]byte(e.Term), nil, nil)
		Expect(err).NotTo(HaveOccurred())
		it := pl.Iterator(true, true, true, nil)
		for p, err := it.Next(); p != nil || err != nil; p, err = it.Next() {
			Expect(err).NotTo(HaveOccurred())
			var pos []uint64
			for _, l := range p.Locations() {
				pos = append(pos, l.Pos())
			}
			out = append(out, fmt.Sprintf("%q %d freq=%d norm=%v pos=%v", e.Term, p.Number(), p.Frequency(), p.Norm(), pos))
		}
	}
	return out
}

// docValues lists document doc's doc values, field by field.
func docValues(s segment.Segment, doc uint64) []string {
	var out []string
	_, err := s.(segment.DocValueVisitable).VisitDocValues(doc, s.Fields(), func(field string, term []byte) {
		out = append(out, field+"="+string(term))
	}, nil)
	Expect(err).NotTo(HaveOccurred())
	sort.Strings(out)
	return out
}
