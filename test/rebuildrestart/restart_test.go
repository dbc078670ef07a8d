package rebuildrestart

import (
	"fmt"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// records is the size of the catalogs rebuilt: ten copy pages. The gate holds the copy
// after pagesBeforeKill of them, so the operator is killed partway whatever the
// machine's speed.
const (
	records         = 10_000
	pagesBeforeKill = 3
)

// holdCopy has the gate hold a rebuild's copy from source after pagesBeforeKill pages:
// the copy reads the source a page at a time, and writes each page and its checkpoint
// before it reads the next.
func holdCopy(source string) <-chan struct{} {
	DeferCleanup(gate.Release)
	return gate.HoldAfter(pagesBeforeKill, func(r *http.Request) bool { return r.URL.Path == "/"+source+"/_search" })
}

var generic = map[string]any{"searchableFields": []map[string]any{{"path": "name"}}, "language": "generic"}

var _ = Describe("An operator killed in the middle of a settings rebuild", func() {
	It("is followed by one that resumes the rebuild where it stopped, losing no acknowledged write", func() {
		first := startOperator()
		t := newTenant("resume")
		t.putRecords(records)
		baseVersion := t.call(http.MethodGet, "/records/base-1", nil)
		source := t.source()
		tr := startTraffic(t, records)

		held := holdCopy(source)
		gen := t.putConfig(generic)
		atKill := t.waitHeld(gen, held)
		crash(first)
		gate.Release()
		By(fmt.Sprintf("the first operator died with %s filled to %d of %d documents",
			atKill.TargetIndex, atKill.DocumentsDone, atKill.DocumentsTotal))

		startOperator()
		lowest := atKill.DocumentsTotal
		observe := func(st *searchv1alpha1.RebuildStatus) {
			if st.State == searchv1alpha1.RebuildRunning {
				lowest = min(lowest, st.DocumentsDone)
			}
		}
		done := t.waitRebuilt(gen, observe)
		left := tr.finish()

		By("having kept the target, the progress and the start time of the killed run")
		Expect(lowest).To(BeNumerically(">=", atKill.DocumentsDone), "documentsDone went back after the restart")
		Expect(done.TargetIndex).To(Equal(atKill.TargetIndex))
		Expect(done.StartTime.Unix()).To(Equal(atKill.StartTime.Unix()))
		Expect(done.DocumentsDone).To(BeNumerically(">=", int64(records)))
		Eventually(t.eventReasons).Should(ContainElement("RebuildResumed"))

		By("leaving only the rebuilt index, and no checkpoint")
		Expect(t.index().Status.PhysicalIndex).To(Equal(atKill.TargetIndex))
		Eventually(t.physical).Should(ConsistOf(atKill.TargetIndex), "%s and any other index are gone", source)
		Eventually(t.checkpointExists).Should(BeFalse())

		By("finding every acknowledged write with its version, no deleted record, and the exact count")
		expectRecords(t, records, left)
		untouched := 0
		for i := 0; i < records && untouched < 20; i += 2 {
			if _, written := left[recordID(i)]; !written {
				untouched++
				Expect(t.call(http.MethodGet, "/records/"+recordID(i), nil).version()).To(Equal(baseVersion.version()))
			}
		}
	})

	It("is followed by one that drops the stale rebuild when the settings changed meanwhile", func() {
		first := startOperator()
		t := newTenant("stale")
		t.putRecords(records)
		held := holdCopy(t.source())
		atKill := t.waitHeld(t.putConfig(generic), held)
		crash(first)
		gate.Release()

		By("changing the settings while no operator runs")
		// The language rebuilds; synonyms, applied by the query (issue 21), come along.
		gen := t.putConfig(map[string]any{"searchableFields": []map[string]any{{"path": "name"}}, "language": "fr",
			"synonyms": []map[string]any{{"terms": []string{"product", "item"}}}})
		startOperator()
		done := t.waitRebuilt(gen, nil)

		Expect(done.TargetIndex).NotTo(Equal(atKill.TargetIndex))
		Expect(done.DocumentsDone).To(BeEquivalentTo(records), "the new rebuild copied everything itself")
		Eventually(t.physical).Should(ConsistOf(done.TargetIndex), "the stale target %s is gone", atKill.TargetIndex)
		Expect(t.eventReasons()).NotTo(ContainElement("RebuildResumed"))
		Eventually(t.checkpointExists).Should(BeFalse())
		Expect(t.count()).To(BeEquivalentTo(records))
		a := t.call(http.MethodPost, "/search", map[string]any{"q": "item", "limit": 1, "typoTolerance": false})
		Expect(a.status).To(Equal(http.StatusOK))
		Expect(string(a.body)).To(ContainSubstring(fmt.Sprintf(`"total":%d`, records)), "the new settings' synonyms apply")
	})
})
