package feedsample

import (
	"bytes"
	"errors"
	"io"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/feed"
)

func TestFeedSample(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Feed sample")
}

var _ = Describe("A sample feed", func() {
	DescribeTable("reads back as every one of its products, none skipped",
		func(write func(io.Writer, []Item) error) {
			items := Items(1200, 7)
			var buf bytes.Buffer
			Expect(write(&buf, items)).To(Succeed())
			r := feed.Open(&buf)
			n := 0
			for {
				_, err := r.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				Expect(err).NotTo(HaveOccurred())
				n++
			}
			Expect(n).To(Equal(1200))
		},
		Entry("as RSS", WriteRSS),
		Entry("as a tab-separated feed", WriteTSV),
	)
	It("is the same for the same seed, and groups variants", func() {
		Expect(Items(50, 3)).To(Equal(Items(50, 3)))
		groups := map[string]int{}
		for _, it := range Items(1000, 3) {
			groups[it.ItemGroupID]++
		}
		Expect(len(groups)).To(BeNumerically("<", 1000))
	})
})
