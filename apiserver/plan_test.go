package apiserver_test

import (
	"fmt"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

var workspaceCounter = 0

// newPlanIndex is a fresh index alone in a fresh workspace whose plan allows maxRecords:
// the plan counts every index of a workspace, so each spec needs a workspace of its own.
func newPlanIndex(maxRecords int64) catalogIndex {
	workspaceCounter++
	ws := fmt.Sprintf("plan-%d-%d", GinkgoParallelProcess(), workspaceCounter)
	Expect(k8sClient.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ws}})).To(Succeed())
	Expect(k8sClient.Create(ctx, &searchv1alpha1.Workspace{ObjectMeta: metav1.ObjectMeta{Name: ws},
		Spec: searchv1alpha1.WorkspaceSpec{Plan: searchv1alpha1.PlanLimits{MaxRecords: maxRecords}}})).To(Succeed())
	return newCatalogIndexIn(ws, "products")
}

// snapshot is what a refused write must leave unchanged: the receipt of GET /indexing,
// what search counts behind the alias, and the physical indices.
type snapshot struct{ accepted, count, searched int64 }

func takeSnapshot(ci catalogIndex) snapshot {
	GinkgoHelper()
	r := call(1, "GET", ci.base+"/indexing", ci.writeKey, nil).receipt()
	return snapshot{accepted: r.AcceptedRevision, count: r.RecordCount, searched: searchCount(ci)}
}

var _ = Describe("The workspace's maxRecords plan limit", func() {
	const limit = 10
	var ci catalogIndex
	BeforeEach(func() {
		ci = newPlanIndex(limit)
		Expect(call(0, "POST", ci.base+"/records", ci.writeKey, recordsBody(records("have", 8))).status).To(Equal(http.StatusAccepted))
	})

	expect402 := func(r response) {
		GinkgoHelper()
		Expect(r.status).To(Equal(http.StatusPaymentRequired), string(r.body))
		Expect(string(r.body)).To(ContainSubstring(`{"error":"plan limit reached: the workspace plan allows 10 records`))
	}
	expectUnchanged := func(before snapshot, absent string) {
		GinkgoHelper()
		Expect(takeSnapshot(ci)).To(Equal(before))
		Expect(call(0, "GET", ci.base+"/records/"+absent, ci.writeKey, nil).body).
			To(MatchJSON(fmt.Sprintf(`{"objectID":%q,"version":0,"record":null}`, absent)))
		Eventually(func() []string { return physicalIndices(ci) }).Should(HaveLen(1))
	}

	It("refuses POST /records with 402 when its new records cross the limit, and writes none of them", func() {
		before := takeSnapshot(ci)
		expect402(call(0, "POST", ci.base+"/records", ci.writeKey, recordsBody(records("new", 3))))
		expectUnchanged(before, "new-0")
	})

	It("accepts POST /records replacing existing records at the limit: they do not count twice", func() {
		Expect(call(0, "POST", ci.base+"/records", ci.writeKey, recordsBody(records("fill", 2))).status).To(Equal(http.StatusAccepted))
		Expect(call(1, "POST", ci.base+"/records", ci.writeKey, recordsBody(records("have", 8))).status).To(Equal(http.StatusAccepted))
	})

	It("refuses PUT /records with 402 when the new catalog is over the limit, and keeps the old one", func() {
		before := takeSnapshot(ci)
		expect402(call(1, "PUT", ci.base+"/records", ci.writeKey, recordsBody(records("big", limit+1))))
		expectUnchanged(before, "big-0")
	})

	It("refuses a staged commit with 402 when the staged catalog is over the limit, and keeps the old one", func() {
		stage := ci.base + "/staged-replacements/over"
		Expect(call(0, "POST", stage, ci.writeKey, nil).status).To(Equal(http.StatusCreated))
		Expect(call(0, "POST", stage+"/batches/b1", ci.writeKey, recordsBody(records("st", limit+1))).status).To(Equal(http.StatusOK))
		before := takeSnapshot(ci)
		expect402(call(1, "POST", stage+"/commit", ci.writeKey, map[string]any{"expectedBatches": 1, "expectedRecords": limit + 1}))
		Expect(takeSnapshot(ci)).To(Equal(before))
		Expect(call(0, "GET", ci.base+"/records/st-0", ci.writeKey, nil).body).To(MatchJSON(`{"objectID":"st-0","version":0,"record":null}`))
		// The stage is reopened, so it can be aborted (or shrunk and committed).
		Expect(call(0, "DELETE", stage, ci.writeKey, nil).status).To(Equal(http.StatusOK))
		Eventually(func() []string { return physicalIndices(ci) }).Should(HaveLen(1))
	})

	It("refuses a conditional create with 402 at the limit, and writes nothing", func() {
		Expect(call(0, "POST", ci.base+"/records", ci.writeKey, recordsBody(records("fill", 2))).status).To(Equal(http.StatusAccepted))
		before := takeSnapshot(ci)
		expect402(call(1, "POST", ci.base+"/record-writes", ci.writeKey, map[string]any{
			"operation": "upsert", "objectID": "one-more", "expectedVersion": 0, "record": map[string]any{"objectID": "one-more"}}))
		expectUnchanged(before, "one-more")
	})
})
