package searcher

import (
	"context"
	"encoding/json"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/engine/store"
)

var _ = Describe("Sorting by a field of several values", func() {
	DescribeTable("ranks a document by its lowest value ascending and its highest descending, as ES's default mode does",
		func(field, order string, want []string, values []any) {
			ix := newIndex(GinkgoT().TempDir(), "modes", `{"properties":{"n":{"type":"long"},"k":{"type":"keyword"}}}`)
			var ops []store.Op
			for i, v := range []any{[]any{values[0], values[3]}, values[1], values[2]} {
				doc, _ := json.Marshal(map[string]any{field: v})
				ops = append(ops, store.Op{Kind: store.OpIndex, ID: fmt.Sprint(i), Source: doc})
			}
			write(ix, ops)
			loopOn = false // bleve's path: match_all never runs in the loop anyway
			DeferCleanup(func() { loopOn = true })
			req, err := ParseBody(map[string]any{"sort": []any{map[string]any{field: order}}})
			Expect(err).NotTo(HaveOccurred())
			resp, err := Run(context.Background(), []*store.Index{ix}, req, Options{})
			Expect(err).NotTo(HaveOccurred())
			var ids []string
			for _, h := range resp["hits"].(map[string]any)["hits"].([]any) {
				ids = append(ids, h.(map[string]any)["_id"].(string))
			}
			Expect(ids).To(Equal(want))
		},
		// Document 0 holds the lowest and the highest value.
		Entry("numbers ascending", "n", "asc", []string{"0", "1", "2"}, []any{1, 5, 6, 9}),
		Entry("numbers descending", "n", "desc", []string{"0", "2", "1"}, []any{1, 5, 6, 9}),
		Entry("keywords ascending", "k", "asc", []string{"0", "1", "2"}, []any{"a", "e", "f", "i"}),
		Entry("keywords descending", "k", "desc", []string{"0", "2", "1"}, []any{"a", "e", "f", "i"}),
	)
})
