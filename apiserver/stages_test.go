package apiserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	catalogstage "github.com/aislehq/aisle/internal/catalog/stage"
)

var _ = Describe("Staged replacements", func() {
	var ci catalogIndex
	BeforeEach(func() { ci = newCatalogIndex() })

	stage := func(id string) string { return ci.base + "/staged-replacements/" + id }
	status := func(r response) catalogstage.Status {
		var st catalogstage.Status
		ExpectWithOffset(1, json.Unmarshal(r.body, &st)).To(Succeed())
		return st
	}
	commit := func(i int, id string, batches, records int) response {
		return call(i, "POST", stage(id)+"/commit", ci.writeKey, map[string]any{"expectedBatches": batches, "expectedRecords": records})
	}

	It("starts, takes batches, commits in one step, and repeats the first receipt", func() {
		call(0, "POST", ci.base+"/records", ci.writeKey, recordsBody(records("old", 4)))
		started := call(0, "POST", stage("s1"), ci.writeKey, nil)
		Expect(started.status).To(Equal(http.StatusCreated))
		Expect(status(started)).To(HaveField("State", "open"))
		again := call(1, "POST", stage("s1"), ci.writeKey, nil)
		Expect(again.status).To(Equal(http.StatusOK))
		Expect(status(again).StartRevision).To(Equal(status(started).StartRevision))

		b1 := call(0, "POST", stage("s1")+"/batches/b1", ci.writeKey, recordsBody(records("b1", 3)))
		Expect(b1.status).To(Equal(http.StatusOK), string(b1.body))
		Expect(call(1, "POST", stage("s1")+"/batches/b2", ci.writeKey, recordsBody(records("b2", 2))).status).To(Equal(http.StatusOK))
		same := call(1, "POST", stage("s1")+"/batches/b1", ci.writeKey, recordsBody(records("b1", 3)))
		Expect(same.status).To(Equal(http.StatusOK))
		Expect(status(same)).To(And(HaveField("Batches", 2), HaveField("Records", BeEquivalentTo(5))))
		other := call(0, "POST", stage("s1")+"/batches/b1", ci.writeKey, recordsBody(records("zz", 3)))
		Expect(other.status).To(Equal(http.StatusConflict))
		Expect(other.body).To(MatchJSON(errorBody(`batch was already uploaded with different records: batch "b1"`)))
		Expect(searchCount(ci)).To(BeEquivalentTo(4), "readers still see the old catalog")

		mismatch := commit(0, "s1", 3, 5)
		Expect(mismatch.status).To(Equal(http.StatusUnprocessableEntity))
		Expect(mismatch.body).To(MatchJSON(errorBody("staged replacement counts differ from the expected counts: expected 3 batches and 5 records, the stage holds 2 batches and 5 records")))

		done := commit(1, "s1", 2, 5)
		Expect(done.status).To(Equal(http.StatusAccepted), string(done.body))
		Expect(done.receipt().RecordCount).To(BeEquivalentTo(5))
		Expect(searchCount(ci)).To(BeEquivalentTo(5))
		Expect(commit(0, "s1", 2, 5).body).To(MatchJSON(done.body))
		got := call(0, "GET", ci.base+"/records/b2-1", ci.writeKey, nil)
		Expect(got.body).To(MatchJSON(fmt.Sprintf(`{"objectID":"b2-1","version":%d,"record":{"objectID":"b2-1","name":"product b2 1"}}`, done.receipt().AcceptedRevision)))
		committed := call(0, "POST", stage("s1"), ci.writeKey, nil)
		Expect(status(committed)).To(And(HaveField("State", "committed"), HaveField("Receipt", Equal(ptr(done.receipt())))))
		Expect(call(0, "DELETE", stage("s1"), ci.writeKey, nil).status).To(Equal(http.StatusConflict))
		Eventually(func() []string { return physicalIndices(ci) }).Should(HaveLen(1))
	})

	It("refuses the commit with 409 when a write reached the index after the stage started", func() {
		call(0, "POST", stage("s2"), ci.writeKey, nil)
		call(1, "POST", stage("s2")+"/batches/b1", ci.writeKey, recordsBody(records("s", 2)))
		call(1, "POST", ci.base+"/records", ci.writeKey, recordsBody(records("late", 1)))
		r := commit(0, "s2", 1, 2)
		Expect(r.status).To(Equal(http.StatusConflict))
		Expect(string(r.body)).To(ContainSubstring("other writes reached the index since the staged replacement started"))
		Expect(searchCount(ci)).To(BeEquivalentTo(1))
	})

	It("aborts a stage, deleting its index, and answers 404 for a stage that does not exist", func() {
		call(0, "POST", stage("s3"), ci.writeKey, nil)
		Expect(physicalIndices(ci)).To(HaveLen(2))
		aborted := call(1, "DELETE", stage("s3"), ci.writeKey, nil)
		Expect(aborted.status).To(Equal(http.StatusOK))
		Expect(status(aborted).State).To(Equal("aborted"))
		Expect(physicalIndices(ci)).To(HaveLen(1))
		for _, r := range []response{
			call(0, "DELETE", stage("s3"), ci.writeKey, nil),
			commit(0, "s3", 0, 0),
			call(0, "POST", stage("nope")+"/batches/b1", ci.writeKey, recordsBody(records("x", 1))),
		} {
			Expect(r.status).To(Equal(http.StatusNotFound))
		}
	})

	It("removes an abandoned stage with its index after the stage TTL", func() {
		call(0, "POST", stage("s4"), ci.writeKey, nil)
		call(0, "POST", stage("s4")+"/batches/b1", ci.writeKey, recordsBody(records("x", 2)))
		Expect(physicalIndices(ci)).To(HaveLen(2))
		Eventually(func() []string { return physicalIndices(ci) }, catalogConfig.StageTTL*3).Should(HaveLen(1))
		// The janitor removes the index, then the stage document: the stage is gone once both are.
		Eventually(func() int {
			return call(0, "POST", stage("s4")+"/batches/b2", ci.writeKey, recordsBody(records("y", 1))).status
		}, catalogConfig.StageTTL).Should(Equal(http.StatusNotFound))
	})

	It("either commits with later writes applied on top, or refuses with 409; it never loses a write or mixes catalogs", func() {
		outcomes := map[int]int{}
		defer func() { GinkgoWriter.Printf("commit outcomes: %v\n", outcomes) }()
		for round := 0; round < 4; round++ {
			id := fmt.Sprintf("race%d", round)
			call(0, "POST", stage(id), ci.writeKey, nil)
			call(0, "POST", stage(id)+"/batches/b1", ci.writeKey, recordsBody(records(id, 50)))

			type written struct {
				id  string
				rev int64
			}
			var (
				mu     sync.Mutex
				writes []written
				stop   atomic.Bool
				wg     sync.WaitGroup
			)
			// The commit goes first, so that writers race its fence: a write that finishes
			// before the fence makes it 409, one that waits for it lands on top.
			committed := make(chan response, 1)
			go func() {
				defer GinkgoRecover()
				committed <- commit(round, id, 1, 50)
			}()
			for w := 0; w < 2; w++ {
				wg.Add(1)
				go func() {
					defer GinkgoRecover()
					defer wg.Done()
					for n := 0; !stop.Load(); n++ {
						oid := fmt.Sprintf("w%d-%d-%d", round, w, n)
						r, err := callE(w, "POST", ci.base+"/records", ci.writeKey, recordsBody([]map[string]any{{"objectID": oid}}))
						Expect(err).NotTo(HaveOccurred())
						if r.status == http.StatusAccepted {
							mu.Lock()
							writes = append(writes, written{oid, r.receipt().AcceptedRevision})
							mu.Unlock()
						}
					}
				}()
			}
			c := <-committed
			stop.Store(true)
			wg.Wait()
			Expect(c.status).To(BeElementOf(http.StatusAccepted, http.StatusConflict), string(c.body))
			outcomes[c.status]++
			if c.status == http.StatusConflict {
				call(0, "DELETE", stage(id), ci.writeKey, nil)
				continue
			}
			rev := c.receipt().AcceptedRevision
			for _, w := range writes {
				got := call(0, "GET", ci.base+"/records/"+w.id, ci.writeKey, nil)
				if w.rev > rev {
					Expect(got.body).To(ContainSubstring(fmt.Sprintf(`"version":%d`, w.rev)), "write %s after the commit is kept", w.id)
				} else {
					Expect(got.body).To(ContainSubstring(`"version":0`), "write %s before the commit was replaced", w.id)
				}
			}
			var after int
			for _, w := range writes {
				if w.rev > rev {
					after++
				}
			}
			Expect(searchCount(ci)).To(BeEquivalentTo(50 + after))
		}
	})
})

func ptr[T any](v T) *T { return &v }

var _ = slices.Contains[[]int]
