package apiserver_test

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Deleting records by filter", func() {
	var ci catalogIndex
	BeforeEach(func() {
		ci = newCatalogIndex()
		Expect(call(0, "PUT", ci.base+"/config", ci.writeKey, []byte(`{"searchableFields": [{"path": "name"}], "filterableFields": ["brand", "stock"]}`)).status).To(Equal(http.StatusOK))
		r := call(0, "POST", ci.base+"/records", ci.writeKey, recordsBody([]map[string]any{
			{"objectID": "a", "name": "A", "brand": "acme", "stock": 0},
			{"objectID": "b", "name": "B", "brand": "acme", "stock": 4},
			{"objectID": "c", "name": "C", "brand": "other", "stock": 0},
		}))
		Expect(r.status).To(Equal(http.StatusAccepted), string(r.body))
	})
	del := func(body string) response {
		return call(0, "POST", ci.base+"/records/delete", ci.writeKey, []byte(body))
	}

	It("deletes the records a filter matches as a write, searchable once the 202 is returned", func() {
		before := call(0, "GET", ci.base+"/indexing", ci.writeKey, nil).receipt()
		r := del(`{"filters": {"and": [{"field": "brand", "eq": "acme"}, {"field": "stock", "range": {"lte": 0}}]}}`)
		Expect(r.status).To(Equal(http.StatusAccepted), string(r.body))
		Expect(r.receipt().AcceptedRevision).To(BeNumerically(">", before.AcceptedRevision))
		Expect(r.receipt().RecordCount).To(BeEquivalentTo(2))
		Expect(searchCount(ci)).To(BeEquivalentTo(2))
		Expect(call(0, "GET", ci.base+"/records/a", ci.writeKey, nil).body).To(MatchJSON(`{"objectID": "a", "version": 0, "record": null}`))
	})

	It("deletes every record with all: true", func() {
		r := del(`{"all": true}`)
		Expect(r.status).To(Equal(http.StatusAccepted), string(r.body))
		Expect(r.receipt().RecordCount).To(BeZero())
		Expect(searchCount(ci)).To(BeZero())
	})

	DescribeTable("refuses a body that does not say what to delete with 400, deleting nothing and taking no revision",
		func(body, message string) {
			before := call(0, "GET", ci.base+"/indexing", ci.writeKey, nil).receipt()
			r := del(body)
			Expect(r.status).To(Equal(http.StatusBadRequest))
			Expect(string(r.body)).To(ContainSubstring(message))
			Expect(call(0, "GET", ci.base+"/indexing", ci.writeKey, nil).receipt()).To(Equal(before))
			Expect(searchCount(ci)).To(BeEquivalentTo(3))
		},
		Entry("an empty body", `{}`, `or {\"all\": true}`),
		Entry("all: false", `{"all": false}`, `or {\"all\": true}`),
		Entry("filters and all", `{"filters": {"field": "brand", "eq": "acme"}, "all": true}`, `or {\"all\": true}`),
		Entry("an empty filter", `{"filters": {}}`, "filters"),
		Entry("a field that is not filterable", `{"filters": {"field": "name", "eq": "A"}}`, "name"),
		Entry("an unknown member", `{"filters": {"field": "brand", "eq": "acme"}, "everything": true}`, `unknown field \"everything\"`),
	)
})
