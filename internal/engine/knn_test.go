package engine_test

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// vectorIndex creates an index of a keyword name and a dense_vector field vec with the
// given mapping parameters, holds docs (id -> [name, vector]) and refreshes it.
func vectorIndex(params string, docs map[string][2]any) string {
	idx := uniqueIndex("vec")
	status, body, _ := rawDo("PUT", "/"+idx, "application/json",
		`{"mappings":{"properties":{"name":{"type":"keyword"},"vec":{"type":"dense_vector",`+params+`}}}}`)
	Expect(status).To(Equal(200), body)
	if len(docs) == 0 {
		return idx
	}
	var bulk strings.Builder
	for id, d := range docs {
		v, _ := json.Marshal(d[1])
		fmt.Fprintf(&bulk, "{\"index\":{\"_id\":%q}}\n{\"name\":%q,\"vec\":%s}\n", id, d[0], v)
	}
	status, body, _ = rawDo("POST", "/"+idx+"/_bulk?refresh=true", "application/x-ndjson", bulk.String())
	Expect(status).To(Equal(200), body)
	Expect(body).NotTo(ContainSubstring(`"errors":true`))
	return idx
}

// hit is a search hit's id and score.
type hit struct {
	ID    string  `json:"_id"`
	Score float64 `json:"_score"`
}

// searchHits runs a search body and returns its hits and total.
func searchHits(idx, body string) ([]hit, int) {
	status, resp, _ := rawDo("POST", "/"+idx+"/_search", "application/json", body)
	Expect(status).To(Equal(200), resp)
	var r struct {
		Hits struct {
			Total struct{ Value int }
			Hits  []hit
		}
	}
	Expect(json.Unmarshal([]byte(resp), &r)).To(Succeed())
	return r.Hits.Hits, r.Hits.Total.Value
}

func knnIDs(hits []hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

var animals = map[string][2]any{
	"1": {"cow", []float64{230.0, 300.33, -34.8988, 15.555, -200.0}},
	"2": {"moose", []float64{-0.5, 100.0, -13, 14.8, -156.0}},
	"3": {"rabbit", []float64{0.5, 111.3, -13.0, 14.8, -156.0}},
}

const animalQuery = `[-0.5, 90.0, -10, 14.8, -156.0]`

var _ = Describe("dense_vector fields", func() {
	It("show ES's defaults in the mapping", func() {
		idx := vectorIndex(`"dims":3`, nil)
		status, body, _ := rawDo("GET", "/"+idx+"/_mapping", "", "")
		Expect(status).To(Equal(200))
		Expect(body).To(MatchJSON(`{"` + idx + `":{"mappings":{"properties":{"name":{"type":"keyword"},
			"vec":{"type":"dense_vector","dims":3,"element_type":"float","index":true,"similarity":"cosine",
			"index_options":{"type":"int8_hnsw","m":16,"ef_construction":100}}}}}}`))
	})

	DescribeTable("refuse a mapping ES refuses, and create no index",
		func(params, reason string) {
			idx := uniqueIndex("badvec")
			status, body, _ := rawDo("PUT", "/"+idx, "application/json",
				`{"mappings":{"properties":{"vec":{"type":"dense_vector",`+params+`}}}}`)
			Expect(status).To(Equal(400))
			Expect(body).To(ContainSubstring(reason))
			status, _, _ = rawDo("HEAD", "/"+idx, "", "")
			Expect(status).To(Equal(404))
		},
		Entry("too many dimensions", `"dims":5000`, "The number of dimensions should be in the range [1, 4096] but was [5000]"),
		Entry("int8_hnsw of bytes", `"dims":3,"element_type":"byte","index_options":{"type":"int8_hnsw"}`, "[element_type] cannot be [byte] when using index type [int8_hnsw]"),
		Entry("a graph parameter on flat", `"dims":3,"index_options":{"type":"flat","m":42}`, "unsupported parameters:  [m : 42]"),
		Entry("an unknown similarity", `"dims":3,"similarity":"manhattan"`, "Unknown vector similarity [manhattan]"),
		Entry("index options without an index", `"dims":3,"index":false,"index_options":{"type":"hnsw"}`, "Field [index_options] can only be specified"),
		Entry("an unknown index type", `"dims":3,"index_options":{"type":"ivf"}`, "Unknown vector index options type [ivf]"),
	)

	DescribeTable("refuse a document whose vector does not fit the field, and index nothing of it",
		func(params, vector, reason string) {
			idx := vectorIndex(params, nil)
			status, body, _ := rawDo("PUT", "/"+idx+"/_doc/1?refresh=true", "application/json", `{"vec":`+vector+`}`)
			Expect(status).To(Equal(400))
			Expect(body).To(ContainSubstring(reason))
			_, total := searchHits(idx, `{}`)
			Expect(total).To(Equal(0))
		},
		Entry("fewer dimensions", `"dims":3`, `[1,2]`, "has a different number of dimensions [2] than defined in the mapping [3]"),
		Entry("more dimensions", `"dims":3`, `[1,2,3,4]`, "has more dimensions than defined in the mapping [3]"),
		Entry("a byte out of range", `"dims":2,"element_type":"byte"`, `[1,200]`, "only support integers between [-128, 127] but found [200] at dim [1]"),
		Entry("a decimal byte", `"dims":2,"element_type":"byte"`, `[1,2.5]`, "only support non-decimal values"),
		Entry("a zero vector for cosine", `"dims":2`, `[0,0]`, "The [cosine] similarity does not support vectors with zero magnitude"),
		Entry("a vector that is not unit-length for dot_product", `"dims":2,"similarity":"dot_product"`, `[3,4]`, "can only be used with unit-length vectors"),
		Entry("a hex string for floats", `"dims":3`, `"807f0a"`, "Failed to parse object"),
	)

	It("take their dimensions from the first document when the mapping has none", func() {
		idx := vectorIndex(`"element_type":"byte","similarity":"l2_norm"`, map[string][2]any{"1": {"a", "807f0a"}})
		status, body, _ := rawDo("GET", "/"+idx+"/_mapping", "", "")
		Expect(status).To(Equal(200))
		Expect(body).To(ContainSubstring(`"dims":3`))
		hits, _ := searchHits(idx, `{"knn":{"field":"vec","query_vector":[-128,127,10],"k":1}}`)
		Expect(hits).To(HaveLen(1))
		Expect(hits[0].Score).To(BeNumerically("~", 1, 1e-6))
	})
})

// l2, cos and dot are the raw similarities of two vectors.
func l2(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i])
	}
	return s
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func cos(a, b []float64) float64 { return dot(a, b) / math.Sqrt(dot(a, a)*dot(b, b)) }

var _ = Describe("kNN search", func() {
	q := []float64{-0.5, 90.0, -10, 14.8, -156.0}
	moose := animals["2"][1].([]float64)

	DescribeTable("scores as Elasticsearch scores each similarity",
		func(params string, want float64) {
			idx := vectorIndex(params, animals)
			hits, _ := searchHits(idx, `{"knn":{"field":"vec","query_vector":`+animalQuery+`,"k":3,"num_candidates":3,
				"filter":{"ids":{"values":["2"]}}}}`)
			Expect(hits).To(HaveLen(1))
			Expect(hits[0].Score).To(BeNumerically("~", want, want*1e-5))
		},
		Entry("l2_norm: 1 / (1 + l2²)", `"dims":5,"similarity":"l2_norm"`, 1/(1+l2(q, moose))),
		Entry("cosine: (1 + cos) / 2", `"dims":5,"similarity":"cosine"`, (1+cos(q, moose))/2),
		Entry("max_inner_product: dot + 1 for a positive dot", `"dims":5,"similarity":"max_inner_product"`, dot(q, moose)+1),
		Entry("flat, exact l2_norm", `"dims":5,"similarity":"l2_norm","index_options":{"type":"flat"}`, 1/(1+l2(q, moose))),
	)

	It("scores dot_product of floats as (1 + dot) / 2, and of bytes as 0.5 + dot / (dims * 2^15)", func() {
		unit := vectorIndex(`"dims":2,"similarity":"dot_product"`, map[string][2]any{"1": {"a", []float64{0.6, 0.8}}})
		hits, _ := searchHits(unit, `{"knn":{"field":"vec","query_vector":[1,0],"k":1}}`)
		Expect(hits[0].Score).To(BeNumerically("~", (1+0.6)/2, 1e-6))
		bytes := vectorIndex(`"dims":2,"element_type":"byte","similarity":"dot_product"`, map[string][2]any{"1": {"a", []int{100, -20}}})
		hits, _ = searchHits(bytes, `{"knn":{"field":"vec","query_vector":[3,4],"k":1}}`)
		Expect(hits[0].Score).To(BeNumerically("~", 0.5+float64(300-80)/(2*32768), 1e-6))
	})

	It("keeps the k nearest, sums its scores with the query's over their union, and boosts them", func() {
		idx := vectorIndex(`"dims":5,"similarity":"l2_norm","index_options":{"type":"hnsw"}`, animals)
		hits, total := searchHits(idx, `{"knn":{"field":"vec","query_vector":`+animalQuery+`,"k":2,"num_candidates":3}}`)
		Expect(knnIDs(hits)).To(Equal([]string{"2", "3"}))
		Expect(total).To(Equal(2))

		hits, total = searchHits(idx, `{"knn":{"field":"vec","query_vector":`+animalQuery+`,"k":2,"num_candidates":3,"boost":2},
			"query":{"term":{"name":"cow"}}}`)
		Expect(knnIDs(hits)).To(Equal([]string{"1", "2", "3"}))
		Expect(total).To(Equal(3))
		Expect(hits[1].Score).To(BeNumerically("~", 2/(1+l2(q, moose)), 1e-6))
	})

	It("chooses the k nearest among the filter's documents, and drops those below similarity", func() {
		idx := vectorIndex(`"dims":5,"similarity":"l2_norm"`, animals)
		hits, _ := searchHits(idx, `{"knn":{"field":"vec","query_vector":`+animalQuery+`,"k":1,"num_candidates":3,
			"filter":{"term":{"name":"cow"}}}}`)
		Expect(knnIDs(hits)).To(Equal([]string{"1"}))
		hits, _ = searchHits(idx, `{"knn":{"field":"vec","query_vector":`+animalQuery+`,"k":3,"num_candidates":3,"similarity":11}}`)
		Expect(knnIDs(hits)).To(Equal([]string{"2"}))
	})

	It("runs as a query inside bool, matching the k nearest that the other clauses match", func() {
		idx := vectorIndex(`"dims":5,"similarity":"l2_norm"`, animals)
		hits, total := searchHits(idx, `{"query":{"bool":{"must":[{"knn":{"field":"vec","query_vector":`+animalQuery+`,"k":2}},
			{"terms":{"name":["cow","rabbit"]}}]}}}`)
		Expect(knnIDs(hits)).To(Equal([]string{"3"}))
		Expect(total).To(Equal(1))
	})

	It("runs as the knn and standard retrievers", func() {
		idx := vectorIndex(`"dims":5,"similarity":"l2_norm"`, animals)
		hits, _ := searchHits(idx, `{"retriever":{"knn":{"field":"vec","query_vector":`+animalQuery+`,"k":2,"num_candidates":3}}}`)
		Expect(knnIDs(hits)).To(Equal([]string{"2", "3"}))
		hits, _ = searchHits(idx, `{"retriever":{"standard":{"query":{"match_all":{}},"filter":{"term":{"name":"moose"}}}}}`)
		Expect(knnIDs(hits)).To(Equal([]string{"2"}))
		status, body, _ := rawDo("POST", "/"+idx+"/_search", "application/json", `{"retriever":{"standard":{}},"query":{"match_all":{}}}`)
		Expect(status).To(Equal(400))
		Expect(body).To(ContainSubstring("cannot specify [retriever] and [query]"))
	})

	DescribeTable("refuses what ES refuses",
		func(body, reason string) {
			idx := vectorIndex(`"dims":5,"similarity":"l2_norm"`, animals)
			status, resp, _ := rawDo("POST", "/"+idx+"/_search", "application/json", body)
			Expect(status).To(Equal(400), resp)
			Expect(resp).To(ContainSubstring(reason))
		},
		Entry("num_candidates below k", `{"knn":{"field":"vec","query_vector":`+animalQuery+`,"k":5,"num_candidates":3}}`, "[num_candidates] cannot be less than [k]"),
		Entry("k of 0", `{"query":{"knn":{"field":"vec","query_vector":`+animalQuery+`,"k":0}}}`, "[k] must be greater than 0"),
		Entry("too many candidates", `{"knn":{"field":"vec","query_vector":`+animalQuery+`,"k":5,"num_candidates":10001}}`, "[num_candidates] cannot exceed [10000]"),
		Entry("a query vector of other dimensions", `{"knn":{"field":"vec","query_vector":[1,2],"k":1}}`, "different number of dimensions [2] than the document vectors [5]"),
		Entry("a field of another type", `{"knn":{"field":"name","query_vector":[1,2],"k":1}}`, "[knn] queries are only supported on [dense_vector] fields"),
		Entry("a bad hex vector", `{"knn":{"field":"vec","query_vector":"40af20a","k":1}}`, "failed to parse field [query_vector]"),
		Entry("a term query on a vector", `{"query":{"term":{"vec":"1"}}}`, "Field [vec] of type [dense_vector] does not support"),
		Entry("a sort on a vector", `{"sort":[{"vec":"asc"}]}`, "can't sort on dense_vector field [vec]"),
		Entry("a terms aggregation of a vector", `{"aggs":{"a":{"terms":{"field":"vec"}}}}`, "of type [dense_vector] is not supported for aggregation [terms]"),
	)
})
