package controllers_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
)

func wsReady(ws *searchv1alpha1.Workspace) func(Gomega) *metav1.Condition {
	return readyCondition(ws, func() []metav1.Condition { return ws.Status.Conditions })
}

var _ = Describe("Workspace", func() {
	It("counts the indexes and keys of its namespace", func() {
		ns := newNamespace("count")
		ws := createWorkspace(ns, 10)
		Eventually(wsReady(ws)).Should(haveReady(metav1.ConditionTrue, searchv1alpha1.ReasonReconciled))
		newIndex(ns, "a", searchv1alpha1.DeletionDelete)
		b := newIndex(ns, "b", searchv1alpha1.DeletionDelete)
		newKey(ns, "k", searchv1alpha1.APIKeySpec{Scopes: []searchv1alpha1.Scope{"search"}})
		counts := func(g Gomega) []int32 {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(ws), ws)).To(Succeed())
			return []int32{ws.Status.Indexes, ws.Status.APIKeys}
		}
		Eventually(counts).Should(Equal([]int32{2, 1}))
		Expect(ws.Status.ObservedGeneration).To(Equal(ws.Generation))

		Expect(k8sClient.Delete(ctx, b)).To(Succeed())
		Eventually(counts).Should(Equal([]int32{1, 1}))
	})

	It("is not Ready until its namespace exists", func() {
		name := uniqueName("later")
		ws := createWorkspace(name, 10)
		Eventually(wsReady(ws)).Should(haveReady(metav1.ConditionFalse, searchv1alpha1.ReasonNamespaceNotFound))
		Expect(k8sClient.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}})).To(Succeed())
		Eventually(wsReady(ws)).Should(haveReady(metav1.ConditionTrue, searchv1alpha1.ReasonReconciled))
	})
})

var _ = Describe("Backend outage", func() {
	It("reports BackendUnavailable while the backend is down and recovers by itself", func() {
		ns := newNamespace("outage")
		createWorkspace(ns, 10)
		proxy.Stop()
		DeferCleanup(func() { Expect(proxy.Start()).To(Succeed()) })

		si := newIndex(ns, "patient", searchv1alpha1.DeletionDelete)
		Eventually(siReady(si)).Should(haveReady(metav1.ConditionFalse, searchv1alpha1.ReasonBackendUnavailable))
		Expect(si.Status.PublicID).NotTo(BeEmpty())

		Expect(proxy.Start()).To(Succeed())
		Eventually(siReady(si)).Should(haveReady(metav1.ConditionTrue, searchv1alpha1.ReasonReconciled))
		Expect(si.Status.PhysicalIndex).NotTo(BeEmpty())

		By("a Ready index that loses the backend goes unready and comes back")
		proxy.Stop()
		Eventually(siReady(si)).Should(haveReady(metav1.ConditionFalse, searchv1alpha1.ReasonBackendUnavailable))
		Expect(proxy.Start()).To(Succeed())
		Eventually(siReady(si)).Should(haveReady(metav1.ConditionTrue, searchv1alpha1.ReasonReconciled))

		By("a deletion waits for the backend, then removes the data")
		proxy.Stop()
		Expect(k8sClient.Delete(ctx, si)).To(Succeed())
		Eventually(siReady(si)).Should(haveReady(metav1.ConditionFalse, searchv1alpha1.ReasonBackendUnavailable))
		Expect(si.DeletionTimestamp).NotTo(BeNil())
		Expect(proxy.Start()).To(Succeed())
		Eventually(func() error { return k8sClient.Get(ctx, client.ObjectKeyFromObject(si), si) }).Should(Satisfy(isNotFound))
		Expect(esIndices(esnames.For(ns, "patient").AllPattern())).To(BeEmpty())
	})
})
