package engine_test

import (
	"strings"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Keyword, numeric, date and boolean fields answer exists from their own terms and are
// not listed in _field_names; the rest (text, unindexed fields, objects) are. Both paths
// must give ES's answers, alone, mixed across indices and in a terms aggregation's
// missing bucket.
const existsMapping = `{"mappings":{"properties":{
 "kw":{"type":"keyword"},"short":{"type":"keyword","ignore_above":3},"hidden":{"type":"keyword","index":false},
 "txt":{"type":"text","fields":{"raw":{"type":"keyword"}}},"n":{"type":"long"},"f":{"type":"float"},
 "d":{"type":"date"},"b":{"type":"boolean"},"obj":{"properties":{"k":{"type":"keyword"}}}}}}`

var existsDocs = []string{
	`{"kw":"a","short":"abc","hidden":"x","txt":"hello","n":1,"f":1.5,"d":"2024-01-01","b":true,"obj":{"k":"v"}}`,
	`{"kw":["b","c"],"short":"toolong","txt":"","n":[2,3],"b":false}`,
	`{"txt":"the","f":0,"d":"2024-02-02","obj":{}}`,
	`{"kw":null,"n":null,"other":"dynamic"}`,
}

var _ = Describe("Exists query", Ordered, func() {
	idx := "exists-fields"
	BeforeAll(func() { loadIndex(idx, existsMapping, existsDocs) })

	// ES docs: Query DSL "Exists query": a field exists when the document has an indexed
	// value for it; null, [] and values over ignore_above do not count; an empty string does.
	DescribeTable("matches the documents that have a value",
		func(field string, expected ...string) {
			res, err := es.Search().Index(idx).Query(query(`{"exists":{"field":"` + field + `"}}`)).Do(ctx)
			Expect(err).NotTo(HaveOccurred())
			Expect(ids(res)).To(ConsistOf(expected))
		},
		Entry("keyword, single and multi-valued, null skipped", "kw", "1", "2"),
		Entry("keyword over ignore_above does not count", "short", "1"),
		Entry("unindexed keyword (doc values only)", "hidden", "1"),
		Entry("text, empty and all-stopword values count", "txt", "1", "2", "3"),
		Entry("keyword multi-field of text", "txt.raw", "1", "2", "3"),
		Entry("long", "n", "1", "2"),
		Entry("float zero counts", "f", "1", "3"),
		Entry("date", "d", "1", "3"),
		Entry("boolean false counts", "b", "1", "2"),
		Entry("object with a value below it", "obj", "1"),
		Entry("dynamically mapped field", "other", "4"),
		Entry("wildcard over several fields (other.keyword is dynamic)", "*k*", "1", "2", "4"),
		Entry("unmapped field", "nope"),
	)

	// ES docs: "Exists query" scores like a constant-score filter: every hit the same,
	// however many values or fields a document has.
	It("gives every hit the same score", func() {
		res, err := es.Search().Index(idx).Query(query(`{"exists":{"field":"kw"}}`)).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Hits.Hits).To(HaveLen(2))
		Expect(*res.Hits.Hits[0].Score_).To(Equal(*res.Hits.Hits[1].Score_))
	})

	It("agrees across indices that map the field differently", func() {
		other := "exists-fields-text"
		_, err := es.Indices.Create(other).Raw(strings.NewReader(`{"mappings":{"properties":{"kw":{"type":"text"}}}}`)).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		_, err = es.Index(other).Id("t1").Raw(strings.NewReader(`{"kw":""}`)).Refresh(refresh.True).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		_, err = es.Index(other).Id("t2").Raw(strings.NewReader(`{"x":1}`)).Refresh(refresh.True).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		res, err := es.Search().Index(idx + "," + other).Query(query(`{"exists":{"field":"kw"}}`)).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(ids(res)).To(ConsistOf("1", "2", "t1"))
	})

	// ES docs: "Terms aggregation" > "Missing value": documents without the field.
	It("counts documents without a keyword value in the missing bucket", func() {
		body := `{"size":0,"aggs":{"k":{"terms":{"field":"kw","missing":"none"},"aggs":{"n":{"max":{"field":"n"}}}}}}`
		code, raw, _ := rawDo("POST", "/"+idx+"/_search", "application/json", body)
		Expect(code).To(Equal(200))
		Expect(raw).To(ContainSubstring(`{"doc_count":2,"key":"none","n":{"value":null}}`))
	})
})
