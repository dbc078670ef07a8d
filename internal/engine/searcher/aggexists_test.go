package searcher

import (
	"encoding/json"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/engine/mapper"
	"github.com/aislehq/aisle/internal/engine/store"
)

// A filter aggregation on exists (a distinct search counts the records without a group
// this way) is checked from the field's column, document by document, instead of stepping
// an exists searcher beside every match; null and empty arrays are no value, as in ES.
var _ = Describe("Filter aggregations on exists", Ordered, func() {
	var ix *store.Index
	BeforeAll(func() {
		st, err := store.Open(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(st.Close)
		m, err := mapper.Parse(json.RawMessage(`{"properties":{"g":{"type":"keyword"},"n":{"type":"long"},"t":{"type":"text"}}}`))
		Expect(err).NotTo(HaveOccurred())
		ix, err = st.Create("groups", store.CreateRequest{Mapping: m})
		Expect(err).NotTo(HaveOccurred())
		docs := []string{`{"g":"x","n":1}`, `{"g":["x","y"],"n":2}`, `{"g":null,"n":3}`, `{"g":[],"n":4}`, `{"n":5}`, `{"g":"y","n":6}`, `{"t":"only text"}`}
		var ops []store.Op
		for i, d := range docs {
			ops = append(ops, store.Op{Kind: store.OpIndex, ID: fmt.Sprint(i), Source: json.RawMessage(d)})
			if i == 3 {
				// Two segments: each binds its own column.
				_, err = ix.Write(ops)
				Expect(err).NotTo(HaveOccurred())
				Expect(ix.Refresh()).To(Succeed())
				ops = nil
			}
		}
		_, err = ix.Write(ops)
		Expect(err).NotTo(HaveOccurred())
		Expect(ix.Refresh()).To(Succeed())
	})

	DescribeTable("count the documents with a value and without one",
		func(filter string, want int) {
			body := `{"size":3,"query":{"match_all":{}},"aggs":{"f":{"filter":` + filter + `}}}`
			for _, on := range []bool{true, false} {
				out, err := searchWith(ix, []byte(body), on)
				Expect(err).NotTo(HaveOccurred())
				var resp struct {
					Aggregations struct {
						F struct {
							DocCount int `json:"doc_count"`
						} `json:"f"`
					} `json:"aggregations"`
				}
				Expect(json.Unmarshal([]byte(out), &resp)).To(Succeed(), out)
				Expect(resp.Aggregations.F.DocCount).To(Equal(want), "loop %v: %s", on, out)
			}
		},
		Entry("exists", `{"exists":{"field":"g"}}`, 3),
		Entry("not exists", `{"bool":{"must_not":[{"exists":{"field":"g"}}]}}`, 4),
		Entry("not exists, beside a range", `{"bool":{"filter":[{"range":{"n":{"gte":3}}}],"must_not":[{"exists":{"field":"g"}}]}}`, 3),
		Entry("exists or a term", `{"bool":{"should":[{"exists":{"field":"g"}},{"term":{"n":5}}]}}`, 4),
	)
})
