package apiserver_test

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Records whose values conflict with the index mapping", func() {
	var ci catalogIndex
	base := map[string]any{"objectID": "base", "price": 10, "released": "2024-01-02", "brand": map[string]any{"name": "acme"}, "inStock": true}
	BeforeEach(func() {
		ci = newCatalogIndex()
		// Maps price long, released date, brand an object and inStock boolean.
		Expect(call(0, "POST", ci.base+"/records", ci.writeKey, recordsBody([]map[string]any{base})).status).To(Equal(http.StatusAccepted))
	})

	// unchanged checks that the refused request left every record as it was.
	unchanged := func(before response) {
		GinkgoHelper()
		Expect(call(1, "GET", ci.base+"/records/base", ci.writeKey, nil).body).To(MatchJSON(before.body))
		for _, id := range []string{"new-1", "new-2"} {
			Expect(call(1, "GET", ci.base+"/records/"+id, ci.writeKey, nil).body).To(ContainSubstring(`"record":null`))
		}
		Expect(searchCount(ci)).To(BeEquivalentTo(1))
	}
	// send posts a new record, an update of base, the bad record and another new record.
	send := func(bad map[string]any) response {
		return call(0, "POST", ci.base+"/records", ci.writeKey, recordsBody([]map[string]any{
			{"objectID": "new-1", "price": 5, "size": 40}, // size is new to the mapping
			{"objectID": "base", "price": 11, "released": "2024-02-03", "brand": map[string]any{"name": "other"}, "inStock": false},
			bad,
			{"objectID": "new-2", "price": 6},
		}))
	}

	DescribeTable("refuses the request with 400 naming the first bad record, and writes none of its records",
		func(bad map[string]any, message string) {
			before := call(1, "GET", ci.base+"/records/base", ci.writeKey, nil)
			r := send(bad)
			Expect(r.status).To(Equal(http.StatusBadRequest), string(r.body))
			Expect(r.body).To(MatchJSON(errorBody(message)))
			unchanged(before)
		},
		Entry("a word in a long field", map[string]any{"objectID": "bad", "price": "abc"},
			`records[2]: field "price": "abc" cannot be indexed as long: For input string: "abc"`),
		Entry("a boolean in a long field", map[string]any{"objectID": "bad", "price": true},
			`records[2]: field "price": true cannot be indexed as long: Current token (VALUE_TRUE) not numeric, can not use numeric value accessors`),
		Entry("an object in a long field", map[string]any{"objectID": "bad", "price": map[string]any{"amount": 1}},
			`records[2]: field "price": an object where the mapping has type long`),
		Entry("a value where the mapping has an object", map[string]any{"objectID": "bad", "brand": "acme"},
			`records[2]: field "brand": a value where the mapping has an object`),
		Entry("a date in a format the mapping does not accept", map[string]any{"objectID": "bad", "released": "02/01/2024"},
			`records[2]: field "released": "02/01/2024" cannot be indexed as date: failed to parse date field [02/01/2024] with format [strict_date_optional_time||epoch_millis]`),
		Entry("a word in a boolean field", map[string]any{"objectID": "bad", "inStock": "yes"},
			`records[2]: field "inStock": "yes" cannot be indexed as boolean: only true or false are allowed`),
		Entry("a new field given a number in an earlier record and an object here", map[string]any{"objectID": "bad", "size": map[string]any{"eu": 42}},
			`records[2]: field "size": an object where the mapping has type long`),
	)

	It("accepts what Elasticsearch coerces: numeric strings, epoch milliseconds, boolean strings", func() {
		r := call(0, "POST", ci.base+"/records", ci.writeKey, recordsBody([]map[string]any{
			{"objectID": "co", "price": "12", "released": 1700000000000, "inStock": "false", "brand": map[string]any{"name": 7}},
		}))
		Expect(r.status).To(Equal(http.StatusAccepted), string(r.body))
	})

	It("undoes the records written before and after one the backend refuses inside _bulk, so the request has no effect", func() {
		before := call(1, "GET", ci.base+"/records/base", ci.writeKey, nil)
		// An empty field name passes the mapping check; the backend refuses the document.
		r := send(map[string]any{"objectID": "bad", "": 1})
		Expect(r.status).To(Equal(http.StatusBadRequest), string(r.body))
		Expect(string(r.body)).To(HavePrefix(`{"error":"records[2]: `))
		unchanged(before)
	})
})
