package apiserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/catalog"
)

// partialAnswer is the body of a POST /records/partial answer.
type partialAnswer struct {
	catalog.Receipt
	Rejected []catalog.Rejection `json:"rejected"`
}

var _ = Describe("Partial updates", func() {
	var ci catalogIndex
	BeforeEach(func() { ci = newCatalogIndex() })

	partial := func(i int, body string) response {
		GinkgoHelper()
		return call(i, "POST", ci.base+"/records/partial", ci.writeKey, []byte(body))
	}
	answer := func(r response) partialAnswer {
		GinkgoHelper()
		Expect(r.status).To(Equal(http.StatusAccepted), string(r.body))
		var a partialAnswer
		Expect(json.Unmarshal(r.body, &a)).To(Succeed())
		return a
	}
	read := func(id string) catalog.ReadResult {
		GinkgoHelper()
		var rr catalog.ReadResult
		Expect(json.Unmarshal(call(0, "GET", ci.base+"/records/"+id, ci.writeKey, nil).body, &rr)).To(Succeed())
		return rr
	}
	searchTerm := func(field string, value any) int64 {
		GinkgoHelper()
		res, err := esClient.Search().Index(ci.names.Alias()).Size(0).TrackTotalHits(true).
			Query(&types.Query{Term: map[string]types.TermQuery{field: {Value: value}}}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		return res.Hits.Total.Value
	}
	seed := func() catalog.Receipt {
		GinkgoHelper()
		r := call(0, "POST", ci.base+"/records", ci.writeKey, recordsBody([]map[string]any{
			{"objectID": "shoe", "name": "Shoe", "stock": 3, "price": 50, "tags": []string{"sale"}, "promo": true},
			{"objectID": "boot", "name": "Boot", "stock": 1},
		}))
		Expect(r.status).To(Equal(http.StatusAccepted), string(r.body))
		return r.receipt()
	}

	It("applies each kind of operation as one write, the records searchable once the 202 is returned", func() {
		seed()
		a := answer(partial(0, `{"operations": [
			{"objectID": "shoe", "set": {"price": 45}, "unset": ["promo"], "decrement": {"stock": 1}, "add": {"tags": "new"}},
			{"objectID": "shoe", "addUnique": {"tags": "sale"}},
			{"objectID": "shoe", "remove": {"tags": "new"}},
			{"objectID": "boot", "increment": {"stock": 4}, "addUnique": {"tags": "winter"}}]}`))
		Expect(a.Rejected).To(BeEmpty())
		Expect(a.RecordCount).To(BeEquivalentTo(2))
		Expect(a.IndexedRevision).To(BeNumerically(">=", a.AcceptedRevision))

		shoe := read("shoe")
		Expect(shoe.Version).To(Equal(a.AcceptedRevision))
		Expect(shoe.Record).To(MatchJSON(`{"objectID": "shoe", "name": "Shoe", "stock": 2, "price": 45, "tags": ["sale"]}`))
		Expect(read("boot").Record).To(MatchJSON(`{"objectID": "boot", "name": "Boot", "stock": 5, "tags": ["winter"]}`))
		Expect(searchTerm("stock", 5)).To(BeEquivalentTo(1))
		Expect(searchTerm("price", 45)).To(BeEquivalentTo(1))
	})

	It("rejects an operation on a missing record unless createIfMissing, applying the others", func() {
		before := seed()
		a := answer(partial(0, `{"operations": [
			{"objectID": "ghost", "set": {"name": "Ghost"}},
			{"objectID": "boot", "increment": {"stock": 1}},
			{"objectID": "hat", "set": {"name": "Hat"}, "increment": {"stock": 2}, "createIfMissing": true}]}`))
		Expect(a.Rejected).To(Equal([]catalog.Rejection{{Index: 0, Reason: catalog.ReasonMissing}}))
		Expect(a.AcceptedRevision).To(BeNumerically(">", before.AcceptedRevision))
		Expect(a.RecordCount).To(BeEquivalentTo(3))
		Expect(read("ghost").Version).To(BeZero())
		Expect(read("hat").Record).To(MatchJSON(`{"objectID": "hat", "name": "Hat", "stock": 2}`))
		Expect(read("boot").Version).To(Equal(a.AcceptedRevision))
		Expect(searchCount(ci)).To(BeEquivalentTo(3))
	})

	It("applies an operation only when its expectedVersion is the record's version, and keeps the version of a record it leaves unchanged", func() {
		seeded := seed()
		a := answer(partial(0, fmt.Sprintf(`{"operations": [
			{"objectID": "shoe", "set": {"price": 40}, "expectedVersion": %d},
			{"objectID": "boot", "set": {"price": 10}, "expectedVersion": %d},
			{"objectID": "boot", "set": {"stock": 1}}]}`, seeded.AcceptedRevision, seeded.AcceptedRevision+7)))
		Expect(a.Rejected).To(HaveLen(1))
		Expect(a.Rejected[0].Index).To(Equal(1))
		Expect(a.Rejected[0].Reason).To(ContainSubstring("not the expectedVersion"))
		Expect(read("shoe").Version).To(Equal(a.AcceptedRevision))
		boot := read("boot")
		Expect(boot.Version).To(Equal(seeded.AcceptedRevision))
		Expect(boot.Record).To(MatchJSON(`{"objectID": "boot", "name": "Boot", "stock": 1}`))
	})

	It("rejects an operation on a field of another kind, naming it, and writes the others", func() {
		seed()
		a := answer(partial(0, `{"operations": [
			{"objectID": "shoe", "increment": {"name": 1}},
			{"objectID": "shoe", "add": {"name": "x"}},
			{"objectID": "shoe", "increment": {"stock": 10}}]}`))
		Expect(a.Rejected).To(Equal([]catalog.Rejection{
			{Index: 0, Reason: `increment: field "name" is not a number`},
			{Index: 1, Reason: `add: field "name" is not an array`}}))
		Expect(read("shoe").Record).To(MatchJSON(`{"objectID": "shoe", "name": "Shoe", "stock": 13, "price": 50, "tags": ["sale"], "promo": true}`))
	})

	It("refuses a value the index's field type cannot hold with 400 before taking a revision", func() {
		seeded := seed()
		r := partial(0, `{"operations": [{"objectID": "boot", "increment": {"stock": 1}}, {"objectID": "shoe", "set": {"stock": "many"}}]}`)
		Expect(r.status).To(Equal(http.StatusBadRequest))
		Expect(string(r.body)).To(ContainSubstring(`operations[1]: field \"stock\"`))
		Expect(call(1, "GET", ci.base+"/indexing", ci.writeKey, nil).receipt()).To(Equal(seeded))
		Expect(read("boot").Record).To(MatchJSON(`{"objectID": "boot", "name": "Boot", "stock": 1}`))
	})

	It("repeats the first answer to an idempotency key, rejections included, without writing again; another body gets 422", func() {
		seed()
		body := `{"operations": [{"objectID": "boot", "increment": {"stock": 1}}, {"objectID": "nope", "set": {"a": 1}}], "idempotencyKey": "inc-1"}`
		first := partial(0, body)
		again := partial(1, body)
		Expect(again.status).To(Equal(http.StatusAccepted))
		Expect(again.body).To(MatchJSON(first.body))
		Expect(answer(again).Rejected).To(HaveLen(1))
		Expect(read("boot").Record).To(MatchJSON(`{"objectID": "boot", "name": "Boot", "stock": 2}`))
		other := partial(0, `{"operations": [{"objectID": "boot", "increment": {"stock": 2}}], "idempotencyKey": "inc-1"}`)
		Expect(other.status).To(Equal(http.StatusUnprocessableEntity))
	})

	It("makes a staged replacement in progress conflict at its commit, as other writes do", func() {
		seed()
		stage := ci.base + "/staged-replacements/s1"
		call(0, "POST", stage, ci.writeKey, nil)
		call(0, "POST", stage+"/batches/b1", ci.writeKey, recordsBody(records("s", 2)))
		answer(partial(1, `{"operations": [{"objectID": "boot", "increment": {"stock": 1}}]}`))
		r := call(0, "POST", stage+"/commit", ci.writeKey, map[string]any{"expectedBatches": 1, "expectedRecords": 2})
		Expect(r.status).To(Equal(http.StatusConflict))
		Expect(read("boot").Record).To(MatchJSON(`{"objectID": "boot", "name": "Boot", "stock": 2}`))
	})

	It("counts every increment when 50 clients increment one record 100 times each, across both replicas", func() {
		seed()
		var wg sync.WaitGroup
		for c := range 50 {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				for range 100 {
					r, err := callE(c, "POST", ci.base+"/records/partial", ci.writeKey, []byte(`{"operations": [{"objectID": "boot", "increment": {"stock": 1}}]}`))
					Expect(err).NotTo(HaveOccurred())
					Expect(r.status).To(Equal(http.StatusAccepted), string(r.body))
				}
			}()
		}
		wg.Wait()
		boot := read("boot")
		Expect(boot.Record).To(MatchJSON(`{"objectID": "boot", "name": "Boot", "stock": 5001}`))
		Expect(searchTerm("stock", 5001)).To(BeEquivalentTo(1))
	})
})
