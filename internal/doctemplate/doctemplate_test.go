package doctemplate_test

import (
	"bytes"
	"encoding/json"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/doctemplate"
)

func TestDocTemplate(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "doctemplate")
}

func record(src string) map[string]any {
	d := json.NewDecoder(bytes.NewReader([]byte(src)))
	d.UseNumber()
	var m map[string]any
	Expect(d.Decode(&m)).To(Succeed())
	return m
}

var _ = Describe("A document template", func() {
	DescribeTable("renders a record's fields by name",
		func(tpl, rec string, maxBytes int, want string) {
			t, err := doctemplate.Parse(tpl)
			Expect(err).NotTo(HaveOccurred())
			Expect(t.Render(record(rec), maxBytes)).To(Equal(want))
		},
		Entry("fields by name", "{{title}} by {{brand}}. {{description}}",
			`{"title": "Trail boot", "brand": "Acme", "description": "Warm."}`, 400, "Trail boot by Acme. Warm."),
		Entry("nested fields with dots", "{{specs.color}} {{ title }}", `{"title": "hat", "specs": {"color": "red"}}`, 400, "red hat"),
		Entry("arrays joined", "{{tags}}", `{"tags": ["wool", "warm", 3]}`, 400, "wool, warm, 3"),
		Entry("numbers and booleans as written", "{{price}} {{new}}", `{"price": 12.50, "new": true}`, 400, "12.50 true"),
		Entry("a missing field and an object empty", "{{title}} by {{brand}}{{specs}}", `{"title": "hat", "specs": {"a": 1}}`, 400, "hat by"),
		Entry("cut at the bound", "{{title}}", `{"title": "abcdefgh"}`, 5, "abcde"),
		Entry("cut at a character's boundary", "{{title}}", `{"title": "aé"}`, 2, "a"),
	)

	DescribeTable("is refused with a message saying what is wrong",
		func(tpl, want string) {
			_, err := doctemplate.Parse(tpl)
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("no field", "just text", "names no field"),
		Entry("an unclosed placeholder", "{{title} by", "not closed"),
		Entry("a stray closer", "title}}", "closes no {{"),
		Entry("a path that is no field", "{{ti tle}}", "is not a field path"),
		Entry("an empty placeholder", "{{}}", "is not a field path"),
		Entry("a trailing dot", "{{a.}}", "is not a field path"),
	)

	It("lists its paths in order", func() {
		t, err := doctemplate.Parse("{{a}} {{b.c}}")
		Expect(err).NotTo(HaveOccurred())
		Expect(t.Paths()).To(Equal([]string{"a", "b.c"}))
	})
})
