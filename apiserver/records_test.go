package apiserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/catalog"
)

var _ = Describe("Records", func() {
	var ci catalogIndex
	BeforeEach(func() { ci = newCatalogIndex() })

	It("adds records with POST, answers 202 with a receipt once they are searchable, and reads them back with their version", func() {
		r := call(0, "POST", ci.base+"/records", ci.writeKey, recordsBody(records("a", 3)))
		Expect(r.status).To(Equal(http.StatusAccepted), string(r.body))
		rc := r.receipt()
		Expect(rc.AcceptedRevision).To(BeNumerically(">", 0))
		Expect(rc.IndexedRevision).To(BeNumerically(">=", rc.AcceptedRevision))
		Expect(rc.RecordCount).To(BeEquivalentTo(3))
		Expect(searchCount(ci)).To(BeEquivalentTo(3))

		got := call(1, "GET", ci.base+"/records/a-1", ci.searchKey, nil)
		Expect(got.status).To(Equal(http.StatusOK))
		Expect(got.body).To(MatchJSON(fmt.Sprintf(`{"objectID":"a-1","version":%d,"record":{"objectID":"a-1","name":"product a 1"}}`, rc.AcceptedRevision)))

		idx := call(1, "GET", ci.base+"/indexing", ci.searchKey, nil)
		Expect(idx.status).To(Equal(http.StatusOK))
		Expect(idx.receipt()).To(Equal(catalog.Receipt{AcceptedRevision: rc.AcceptedRevision, IndexedRevision: rc.AcceptedRevision, RecordCount: 3}))
	})

	It("answers version 0 and record null for a record that does not exist", func() {
		got := call(0, "GET", ci.base+"/records/nothing%2Fhere", ci.writeKey, nil)
		Expect(got.status).To(Equal(http.StatusOK))
		Expect(got.body).To(MatchJSON(`{"objectID":"nothing/here","version":0,"record":null}`))
	})

	It("deletes a record with DELETE, as a write with a receipt", func() {
		call(0, "POST", ci.base+"/records", ci.writeKey, recordsBody(records("d", 2)))
		r := call(1, "DELETE", ci.base+"/records/d-0", ci.writeKey, nil)
		Expect(r.status).To(Equal(http.StatusAccepted))
		Expect(r.receipt().RecordCount).To(BeEquivalentTo(1))
		Expect(call(0, "GET", ci.base+"/records/d-0", ci.writeKey, nil).body).To(MatchJSON(`{"objectID":"d-0","version":0,"record":null}`))
	})

	DescribeTable("refuses bad records with 400 naming the first bad one, and writes nothing",
		func(body string, message string) {
			call(0, "POST", ci.base+"/records", ci.writeKey, recordsBody(records("ok", 1)))
			before := call(0, "GET", ci.base+"/indexing", ci.writeKey, nil).receipt()
			r := call(0, "POST", ci.base+"/records", ci.writeKey, []byte(body))
			Expect(r.status).To(Equal(http.StatusBadRequest))
			Expect(r.body).To(MatchJSON(errorBody(message)))
			Expect(call(1, "GET", ci.base+"/indexing", ci.writeKey, nil).receipt()).To(Equal(before))
		},
		Entry("an empty objectID", `{"records":[{"objectID":"x"},{"objectID":""}]}`, "records[1]: objectID must be a non-empty string"),
		Entry("a numeric objectID", `{"records":[{"objectID":"x"},{"objectID":"y"},{"objectID":7}]}`, "records[2]: objectID must be a non-empty string"),
		Entry("no objectID", `{"records":[{"name":"x"}]}`, "records[0]: objectID must be a non-empty string"),
		Entry("a record that is not an object", `{"records":[{"objectID":"x"},"y"]}`, "records[1]: must be a JSON object"),
		Entry("the reserved version field", `{"records":[{"objectID":"x","aisleVersion":3}]}`, "records[0]: aisleVersion is a reserved field name"),
		Entry("an objectID over 512 bytes", fmt.Sprintf(`{"records":[{"objectID":%q}]}`, strings.Repeat("x", 513)), "records[0]: objectID must be at most 512 bytes"),
		Entry("no records", `{"records":[]}`, "records: expected 1 to 1000 records, got 0"),
		Entry("no records field", `{}`, `records is required: send {"records": [...]}`),
		Entry("an unknown field", `{"records":[{"objectID":"x"}],"extra":1}`, `invalid JSON body: unknown field "extra"`),
	)

	It("refuses more than 1,000 records in a POST", func() {
		r := call(0, "POST", ci.base+"/records", ci.writeKey, recordsBody(records("big", 1001)))
		Expect(r.status).To(Equal(http.StatusBadRequest))
		Expect(r.body).To(MatchJSON(errorBody("records: expected 1 to 1000 records, got 1001")))
	})

	It("replaces the whole catalog with PUT, giving every record the replacement's revision", func() {
		call(0, "POST", ci.base+"/records", ci.writeKey, recordsBody(records("old", 5)))
		r := call(1, "PUT", ci.base+"/records", ci.writeKey, recordsBody(records("new", 3)))
		Expect(r.status).To(Equal(http.StatusAccepted), string(r.body))
		rc := r.receipt()
		Expect(rc.RecordCount).To(BeEquivalentTo(3))
		Expect(searchCount(ci)).To(BeEquivalentTo(3))
		Expect(call(0, "GET", ci.base+"/records/old-1", ci.writeKey, nil).body).To(MatchJSON(`{"objectID":"old-1","version":0,"record":null}`))
		got := call(0, "GET", ci.base+"/records/new-2", ci.writeKey, nil)
		Expect(got.body).To(MatchJSON(fmt.Sprintf(`{"objectID":"new-2","version":%d,"record":{"objectID":"new-2","name":"product new 2"}}`, rc.AcceptedRevision)))
		Eventually(func() []string { return physicalIndices(ci) }).Should(HaveLen(1))
	})
})

var _ = Describe("Conditional writes", func() {
	var ci catalogIndex
	BeforeEach(func() { ci = newCatalogIndex() })

	write := func(i int, op, id string, expected int64, key string) response {
		body := map[string]any{"operation": op, "objectID": id, "expectedVersion": expected}
		if op == "upsert" {
			body["record"] = map[string]any{"objectID": id, "price": expected}
		}
		if key != "" {
			body["idempotencyKey"] = key
		}
		return call(i, "POST", ci.base+"/record-writes", ci.writeKey, body)
	}

	It("creates with expectedVersion 0, updates with the current version, and refuses a stale version with 409", func() {
		created := write(0, "upsert", "c1", 0, "")
		Expect(created.status).To(Equal(http.StatusAccepted))
		v1 := created.receipt().AcceptedRevision
		Expect(write(1, "upsert", "c1", 0, "").status).To(Equal(http.StatusConflict))
		updated := write(1, "upsert", "c1", v1, "")
		Expect(updated.status).To(Equal(http.StatusAccepted))
		v2 := updated.receipt().AcceptedRevision
		stale := write(0, "delete", "c1", v1, "")
		Expect(stale.status).To(Equal(http.StatusConflict))
		Expect(stale.body).To(MatchJSON(errorBody(catalog.ErrVersionConflict.Error())))
		Expect(write(0, "delete", "c1", v2, "").status).To(Equal(http.StatusAccepted))
		Expect(call(1, "GET", ci.base+"/records/c1", ci.writeKey, nil).body).To(MatchJSON(`{"objectID":"c1","version":0,"record":null}`))
	})

	It("lets exactly one of concurrent writes with the same expectedVersion succeed, across both replicas", func() {
		results := make(chan int, 10)
		for i := 0; i < 10; i++ {
			go func() {
				defer GinkgoRecover()
				results <- write(i, "upsert", "race", 0, "").status
			}()
		}
		counts := map[int]int{}
		for i := 0; i < 10; i++ {
			counts[<-results]++
		}
		Expect(counts).To(Equal(map[int]int{http.StatusAccepted: 1, http.StatusConflict: 9}))
	})

	It("writes once for 20 concurrent requests with one idempotency key, and answers them all with the same receipt", func() {
		before := call(0, "GET", ci.base+"/indexing", ci.writeKey, nil).receipt()
		bodies := make(chan string, 20)
		for i := 0; i < 20; i++ {
			go func() {
				defer GinkgoRecover()
				r := write(i, "upsert", "idem", 0, "key-1")
				Expect(r.status).To(Equal(http.StatusAccepted), string(r.body))
				bodies <- string(r.body)
			}()
		}
		first := <-bodies
		for i := 1; i < 20; i++ {
			Expect(<-bodies).To(MatchJSON(first))
		}
		after := call(1, "GET", ci.base+"/indexing", ci.writeKey, nil).receipt()
		Expect(after.AcceptedRevision).To(Equal(before.AcceptedRevision + 1))
		var rc catalog.Receipt
		Expect(json.Unmarshal([]byte(first), &rc)).To(Succeed())
		Expect(rc.AcceptedRevision).To(Equal(after.AcceptedRevision))
	})

	It("answers 422 to an idempotency key reused with a different body, and repeats a 409 outcome", func() {
		Expect(write(0, "upsert", "k", 0, "key-2").status).To(Equal(http.StatusAccepted))
		other := write(1, "upsert", "k", 5, "key-2")
		Expect(other.status).To(Equal(http.StatusUnprocessableEntity))
		Expect(other.body).To(MatchJSON(errorBody(catalog.ErrIdempotencyMismatch.Error())))
		Expect(write(0, "upsert", "k", 0, "key-3").status).To(Equal(http.StatusConflict))
		Expect(write(1, "upsert", "k", 0, "key-3").status).To(Equal(http.StatusConflict))
	})

	DescribeTable("refuses invalid conditional writes with 400",
		func(body, message string) {
			r := call(0, "POST", ci.base+"/record-writes", ci.writeKey, []byte(body))
			Expect(r.status).To(Equal(http.StatusBadRequest))
			Expect(r.body).To(MatchJSON(errorBody(message)))
		},
		Entry("an unknown operation", `{"operation":"merge","objectID":"x","expectedVersion":0}`, `operation must be "upsert" or "delete"`),
		Entry("no expectedVersion", `{"operation":"delete","objectID":"x"}`, "expectedVersion must be an integer of at least 0"),
		Entry("a record on delete", `{"operation":"delete","objectID":"x","expectedVersion":0,"record":{"objectID":"x"}}`, "record must be absent for a delete"),
		Entry("no record on upsert", `{"operation":"upsert","objectID":"x","expectedVersion":0}`, "record is required for an upsert"),
		Entry("a record with another objectID", `{"operation":"upsert","objectID":"x","expectedVersion":0,"record":{"objectID":"y"}}`, "record.objectID must equal objectID"),
		Entry("a bad idempotency key", `{"operation":"delete","objectID":"x","expectedVersion":0,"idempotencyKey":"a b"}`, "idempotencyKey must be 1 to 64 characters: letters, digits, _ and -"),
	)
})
