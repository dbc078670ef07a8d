package aggs

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestAggs(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Aggregations")
}

// Range keys and messages show numbers as Java shows doubles, and a `format` renders
// them with a Java DecimalFormat pattern: ES's YAML tests compare these strings.
var _ = Describe("Numbers as ES writes them", func() {
	DescribeTable("Double.toString",
		func(f float64, want string) { Expect(javaDouble(f)).To(Equal(want)) },
		Entry("a whole number keeps one fraction digit", 50.0, "50.0"),
		Entry("a fraction", 10.6, "10.6"),
		Entry("a negative number", -1.0, "-1.0"),
		Entry("zero", 0.0, "0.0"),
		Entry("from 10^7, scientific", 1e7, "1.0E7"),
		Entry("below 10^-3, scientific", 0.00015, "1.5E-4"),
	)

	DescribeTable("DecimalFormat",
		func(pattern string, f float64, want string) { Expect(decimalFormat(pattern, f)).To(Equal(want)) },
		Entry("optional fraction digits", "0.0#", 0.04, "0.04"),
		Entry("required fraction digits", "0.0#", 1.0, "1.0"),
		Entry("rounding to the digits there are", "0.0###", 0.015249, "0.0152"),
		Entry("a literal prefix", "Value is ##0.0", 150.0, "Value is 150.0"),
		Entry("no integer digit required", "#.##", 0.5, ".5"),
		Entry("a negative number", "0.0", -2.25, "-2.2"),
	)
})
