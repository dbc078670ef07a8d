package searchquery_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/internal/strictjson"
)

var _ = Describe("A request's explain", func() {
	DescribeTable("reads true, false or an objectID",
		func(body string, want searchquery.Explain) {
			var req searchquery.Request
			Expect(strictjson.Decode([]byte(body), &req)).To(Succeed())
			Expect(req.Explain).To(Equal(want))
		},
		Entry("absent", `{}`, searchquery.Explain{}),
		Entry("true", `{"explain": true}`, searchquery.Explain{On: true}),
		Entry("false", `{"explain": false}`, searchquery.Explain{}),
		Entry("an objectID, which explains the hits too", `{"explain": {"objectID": "sku-1"}}`, searchquery.Explain{On: true, ObjectID: "sku-1"}),
		Entry("an objectID of 512 bytes", `{"explain": {"objectID": "`+strings.Repeat("é", 256)+`"}}`, searchquery.Explain{On: true, ObjectID: strings.Repeat("é", 256)}),
	)

	DescribeTable("refuses anything else, naming explain",
		func(explain, message string) {
			var req searchquery.Request
			err := strictjson.Decode([]byte(`{"explain": `+explain+`}`), &req)
			Expect(err).To(MatchError(`invalid JSON body: field "explain": ` + message))
		},
		Entry("a number", `1`, `must be true, false or {"objectID": "..."}`),
		Entry("a string", `"yes"`, `must be true, false or {"objectID": "..."}`),
		Entry("an objectID that is a number", `{"objectID": 5}`, "objectID must be a string"),
		Entry("an objectID over 512 bytes", `{"objectID": "`+strings.Repeat("a", 513)+`"}`, "objectID must be at most 512 bytes"),
		Entry("an empty objectID", `{"objectID": ""}`, "objectID must not be empty"),
		Entry("no objectID", `{}`, "objectID is required"),
	)

	It("is refused in either form by public search, as explain always was", func() {
		r := searchquery.PublicRules(searchv1alpha1.IndexSettings{}, searchv1alpha1.PublicSearchPolicy{})
		_, err := searchquery.Build(searchquery.Request{Explain: searchquery.Explain{On: true, ObjectID: "sku-1"}}, r, searchquery.Schema{})
		Expect(err).To(MatchError(ContainSubstring("explain: is only available with a key")))
	})

	It("is written back in the form it was read", func() {
		for _, body := range []string{`true`, `false`, `{"objectID":"sku-1"}`} {
			var e searchquery.Explain
			Expect(e.UnmarshalJSON([]byte(body))).To(Succeed())
			out, err := e.MarshalJSON()
			Expect(err).NotTo(HaveOccurred())
			Expect(string(out)).To(Equal(body))
		}
	})
})
