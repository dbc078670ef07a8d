package apiserver_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/test/esbackend"
)

// revisionState reads the revision document of ci's control index, with its seq_no
// and primary term.
func revisionState(ci catalogIndex) (catalog.State, int64, int64) {
	GinkgoHelper()
	res, err := esClient.Get(ci.names.Control(), "revision").Realtime(true).Do(ctx)
	Expect(err).NotTo(HaveOccurred())
	var st catalog.State
	Expect(json.Unmarshal(res.Source_, &st)).To(Succeed())
	return st, *res.SeqNo_, *res.PrimaryTerm_
}

// fenceUp reports whether ci's revision document holds a fence. It asserts nothing: the
// gate calls it, outside the spec's goroutine.
func fenceUp(ci catalogIndex) bool {
	res, err := esClient.Get(ci.names.Control(), "revision").Realtime(true).Do(ctx)
	if err != nil {
		return false
	}
	var st catalog.State
	return json.Unmarshal(res.Source_, &st) == nil && st.Fence != nil
}

// holdRevision leaves a revision pending, as a write in flight on a third replica does,
// until lapseRevision: a commit then fences the index and waits for it to drain, which
// gives the spec a commit that is certainly in progress to kill. It returns the revision.
func holdRevision(ci catalogIndex) int64 {
	GinkgoHelper()
	var rev int64
	Expect(updateRevisionState(ci, func(st *catalog.State) {
		st.Revision++
		rev = st.Revision
		st.Pending = append(st.Pending, catalog.Lease{Rev: rev, Deadline: time.Now().Add(time.Hour).UnixMilli()})
	})).To(Succeed())
	return rev
}

// lapseRevision ends the lease of the pending revision rev now, as the third replica's
// lease runs out.
func lapseRevision(ci catalogIndex, rev int64) {
	GinkgoHelper()
	Eventually(func() error {
		return updateRevisionState(ci, func(st *catalog.State) {
			for i := range st.Pending {
				if st.Pending[i].Rev == rev {
					st.Pending[i].Deadline = time.Now().UnixMilli()
				}
			}
		})
	}).Should(Succeed())
}

// updateRevisionState applies fn to the revision document of ci's control index, by
// compare-and-set.
func updateRevisionState(ci catalogIndex, fn func(*catalog.State)) error {
	st, seq, term := revisionState(ci)
	fn(&st)
	raw, err := json.Marshal(st)
	if err != nil {
		return err
	}
	_, err = esClient.Index(ci.names.Control()).Id("revision").Raw(bytes.NewReader(raw)).
		IfSeqNo(strconv.FormatInt(seq, 10)).IfPrimaryTerm(strconv.FormatInt(term, 10)).Do(ctx)
	return err
}

// watchCatalog checks, until stop closes, that readers only ever see one of the allowed
// record counts: search behind the alias, and GET /indexing on replica 1.
func watchCatalog(ci catalogIndex, stop <-chan struct{}, allowed ...int64) <-chan string {
	out := make(chan string, 1)
	go func() {
		defer GinkgoRecover()
		defer close(out)
		for {
			select {
			case <-stop:
				return
			default:
			}
			n := searchCount(ci)
			r, err := callE(1, "GET", ci.base+"/indexing", ci.writeKey, nil)
			Expect(err).NotTo(HaveOccurred())
			if !containsCount(allowed, n) || !containsCount(allowed, r.receipt().RecordCount) {
				out <- fmt.Sprintf("a reader saw %d records (search) and %s (GET /indexing)", n, r.body)
				return
			}
		}
	}()
	return out
}

func containsCount(allowed []int64, n int64) bool {
	for _, a := range allowed {
		if a == n {
			return true
		}
	}
	return false
}

var _ = Describe("Crash safety of a staged commit", func() {
	It("never shows readers a partial catalog when an apiserver dies in the middle of a commit; a retry on another replica finishes it and the old index goes", func() {
		ci := newCatalogIndex()
		Expect(call(0, "PUT", ci.base+"/records", ci.writeKey, recordsBody(records("old", 100))).status).To(Equal(http.StatusAccepted))
		// Short leases, so that the crashed commit's claim on the stage runs out soon. The
		// process starts before the stage is written: started after, on a loaded machine,
		// it let the stage sit idle past the suite's stage TTL (15 s), and a replica's
		// janitor removed it before the commit.
		gate, err := esbackend.NewGate(esURL)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(gate.Close)
		cmd, base := startAisleAPIServer(gate.URL(), "--write-lease=2s", "--fence-lease=3s")
		stage := ci.base + "/staged-replacements/big"
		Expect(call(0, "POST", stage, ci.writeKey, nil).status).To(Equal(http.StatusCreated))
		for b := 0; b < 3; b++ {
			batch := recordsBody(records(fmt.Sprintf("new%d", b), 1000))
			Expect(call(b, "POST", fmt.Sprintf("%s/batches/b%d", stage, b), ci.writeKey, batch).status).To(Equal(http.StatusOK))
		}
		held := holdRevision(ci)
		// The commit fences the index and waits there for the held revision, for at most
		// its write lease. Whatever the machine's speed, the gate freezes it there: once
		// the fence is in the revision document, the process's next request is held.
		frozen := gate.HoldAfter(0, func(*http.Request) bool { return fenceUp(ci) })

		stop := make(chan struct{})
		bad := watchCatalog(ci, stop, 100, 3000)
		go func() {
			r, err := httpClient.Do(jsonReq("POST", base+stage+"/commit", ci.writeKey, map[string]any{"expectedBatches": 3, "expectedRecords": 3000}))
			if err == nil {
				r.Body.Close()
			}
		}()
		Eventually(frozen, time.Minute).Should(BeClosed(), "the commit put its fence up")
		Expect(cmd.Process.Signal(syscall.SIGKILL)).To(Succeed())
		_, _ = cmd.Process.Wait()
		gate.Release()
		Expect(searchCount(ci)).To(BeEquivalentTo(100), "the killed commit had not switched the catalog")
		lapseRevision(ci, held)

		// The retry waits out the crashed commit's claim, then takes the commit over.
		done := call(1, "POST", stage+"/commit", ci.writeKey, map[string]any{"expectedBatches": 3, "expectedRecords": 3000})
		Expect(done.status).To(Equal(http.StatusAccepted), string(done.body))
		close(stop)
		Expect(<-bad).To(BeEmpty())
		rc := done.receipt()
		Expect(rc).To(Equal(catalog.Receipt{AcceptedRevision: rc.AcceptedRevision, IndexedRevision: rc.AcceptedRevision, RecordCount: 3000}))
		Expect(call(0, "POST", stage+"/commit", ci.writeKey, map[string]any{"expectedBatches": 3, "expectedRecords": 3000}).body).To(MatchJSON(done.body))
		Expect(searchCount(ci)).To(BeEquivalentTo(3000))
		Eventually(func() []string { return physicalIndices(ci) }, catalogConfig.BuildLease*10).Should(HaveLen(1))
		st, _, _ := revisionState(ci)
		Expect(st.Fence).To(BeNil())
		Expect(st.LastWrite).To(Equal(rc.AcceptedRevision))
		// Writes go on after the crash, on top of the committed catalog.
		after := call(0, "POST", ci.base+"/records", ci.writeKey, recordsBody(records("after", 1)))
		Expect(after.status).To(Equal(http.StatusAccepted))
		Expect(after.receipt().RecordCount).To(BeEquivalentTo(3001))
	})
})
