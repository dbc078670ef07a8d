package columns

import (
	"math/rand"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("A single-valued column kept in fewer bytes", func() {
	DescribeTable("reads every document's ordinals and ranges as the four-byte column does",
		func(terms int, width string) {
			r := rand.New(rand.NewSource(int64(terms)))
			wide := &Column{Terms: make([][]byte, terms), single: make([]uint32, 3000)}
			for d := range wide.single {
				if r.Intn(5) > 0 { // some documents without a value
					wide.single[d] = uint32(1 + r.Intn(terms))
				}
			}
			narrow := &Column{Terms: wide.Terms, single: append([]uint32(nil), wide.single...)}
			narrow.narrow()
			Expect(map[string]bool{"8": narrow.single8 != nil, "16": narrow.single16 != nil, "32": narrow.single != nil}).
				To(HaveKeyWithValue(width, true))
			var one, other [1]uint32
			for d := uint64(0); d < 3010; d++ { // past the last document too
				Expect(narrow.Ords(d, &one)).To(Equal(wide.Ords(d, &other)), "document %d", d)
				from := uint32(r.Intn(terms))
				to := from + uint32(r.Intn(terms-int(from)+1))
				Expect(narrow.AnyIn(d, from, to)).To(Equal(wide.AnyIn(d, from, to)), "document %d in [%d, %d)", d, from, to)
			}
		},
		Entry("a byte: up to 254 terms", 254, "8"),
		Entry("two bytes", 255, "16"),
		Entry("two bytes: up to 65,534 terms", 65534, "16"),
		Entry("four bytes beyond", 70000, "32"),
	)
})
