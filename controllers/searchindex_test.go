package controllers_test

import (
	"sort"
	"strings"
	"time"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/controllers"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/indexmapping"
	"github.com/aislehq/aisle/internal/searchlog"
)

func newIndex(ns, name string, policy searchv1alpha1.DeletionPolicy) *searchv1alpha1.SearchIndex {
	si := &searchv1alpha1.SearchIndex{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: searchv1alpha1.SearchIndexSpec{
			DeletionPolicy: policy,
			Settings: searchv1alpha1.IndexSettings{
				SearchableFields: []searchv1alpha1.SearchableField{{Path: "title", Weight: 2}},
				Synonyms:         []searchv1alpha1.SynonymGroup{{Terms: []string{"tv", "television"}}},
			},
		},
	}
	Expect(k8sClient.Create(ctx, si)).To(Succeed())
	return si
}

func siReady(si *searchv1alpha1.SearchIndex) func(Gomega) *metav1.Condition {
	return readyCondition(si, func() []metav1.Condition { return si.Status.Conditions })
}

// esIndices lists the backend's indices matching a pattern.
func esIndices(pattern string) []string {
	res, err := esClient.Indices.Get(pattern).AllowNoIndices(true).IgnoreUnavailable(true).Do(ctx)
	Expect(err).NotTo(HaveOccurred())
	names := make([]string, 0, len(res))
	for name := range res {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

var _ = Describe("SearchIndex", func() {
	It("creates the physical index with its mapping and alias, keeps a stable public ID and counts records", func() {
		ns := newNamespace("si")
		createWorkspace(ns, 10)
		si := newIndex(ns, "products", searchv1alpha1.DeletionRetain)
		names := esnames.For(ns, "products")

		Eventually(siReady(si)).Should(haveReady(metav1.ConditionTrue, searchv1alpha1.ReasonReconciled))
		Expect(si.Status.ObservedGeneration).To(Equal(si.Generation))
		Expect(si.Status.Alias).To(Equal(names.Alias()))
		Expect(si.Status.PhysicalIndex).To(Equal(names.Physical(1)))
		Expect(si.Status.PublicID).To(MatchRegexp(`^[a-z2-7]{32}$`))
		Expect(si.Annotations).To(HaveKeyWithValue(controllers.PublicIDAnnotation, si.Status.PublicID))
		Expect(si.Finalizers).To(ContainElement(controllers.FinalizerName))
		hash, _ := indexmapping.Hash(si.Spec.Settings)
		Expect(si.Status.SettingsHash).To(Equal(hash))

		got, err := esClient.Indices.Get(names.Alias()).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(HaveKey(names.Physical(1)))
		state := got[names.Physical(1)]
		Expect(state.Aliases).To(HaveKey(names.Alias()))
		Expect(state.Mappings.Properties).To(HaveKey("title"))
		Expect(state.Mappings.Properties["title"]).To(HaveField("Type", "text"))

		By("indexing a record through the alias, the count follows")
		_, err = esClient.Index(names.Alias()).Id("p1").
			Document(map[string]any{"objectID": "p1", "title": "Television"}).
			Refresh(refresh.True).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Eventually(func(g Gomega) int64 {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(si), si)).To(Succeed())
			return si.Status.Records
		}).Should(BeEquivalentTo(1))

		By("the analysis from the settings applies: English stemming (synonyms are the query's, issue 21)")
		for _, q := range []string{"television", "televisions"} {
			res, err := esClient.Search().Index(names.Alias()).
				Query(&types.Query{Match: map[string]types.MatchQuery{"title": {Query: q}}}).Do(ctx)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Hits.Hits).To(HaveLen(1), "query %q", q)
			Expect(*res.Hits.Hits[0].Id_).To(Equal("p1"))
		}

		By("a spec change keeps the public ID")
		publicID := si.Status.PublicID
		Eventually(func() error {
			if err := k8sClient.Get(ctx, client.ObjectKeyFromObject(si), si); err != nil {
				return err
			}
			si.Spec.AllowedOrigins = []searchv1alpha1.Origin{"https://shop.example"}
			return k8sClient.Update(ctx, si)
		}).Should(Succeed())
		Eventually(func(g Gomega) int64 {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(si), si)).To(Succeed())
			return si.Status.ObservedGeneration
		}).Should(Equal(si.Generation))
		Expect(si.Status.PublicID).To(Equal(publicID))
	})

	It("keeps the public ID from the annotation when status is lost", func() {
		ns := newNamespace("restore")
		createWorkspace(ns, 10)
		si := &searchv1alpha1.SearchIndex{ObjectMeta: metav1.ObjectMeta{
			Namespace: ns, Name: "restored",
			Annotations: map[string]string{controllers.PublicIDAnnotation: "keptpublicidfromthebackup0000001"},
		}}
		Expect(k8sClient.Create(ctx, si)).To(Succeed())
		Eventually(siReady(si)).Should(haveReady(metav1.ConditionTrue, searchv1alpha1.ReasonReconciled))
		Expect(si.Status.PublicID).To(Equal("keptpublicidfromthebackup0000001"))
	})

	It("deletes the alias, physical, event and order indices with deletionPolicy Delete", func() {
		ns := newNamespace("del")
		createWorkspace(ns, 10)
		si := newIndex(ns, "gone", searchv1alpha1.DeletionDelete)
		names := esnames.For(ns, "gone")
		Eventually(siReady(si)).Should(haveReady(metav1.ConditionTrue, searchv1alpha1.ReasonReconciled))
		createSideIndices(names)
		Expect(esIndices(names.AllPattern())).To(HaveLen(3))

		Expect(k8sClient.Delete(ctx, si)).To(Succeed())
		Eventually(func() error { return k8sClient.Get(ctx, client.ObjectKeyFromObject(si), si) }).
			Should(Satisfy(isNotFound))
		Expect(esIndices(names.AllPattern())).To(BeEmpty())
	})

	It("deletes the search log indices with the rest, with deletionPolicy Delete", func() {
		ns := newNamespace("dellog")
		createWorkspace(ns, 10)
		si := newIndex(ns, "searched", searchv1alpha1.DeletionDelete)
		names := esnames.For(ns, "searched")
		Eventually(siReady(si)).Should(haveReady(metav1.ConditionTrue, searchv1alpha1.ReasonReconciled))
		_, err := esClient.Indices.Create(names.Searches(time.Now())).Raw(strings.NewReader(searchlog.Mapping)).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(esIndices(names.SearchesPattern())).To(HaveLen(1))

		Expect(k8sClient.Delete(ctx, si)).To(Succeed())
		Eventually(func() error { return k8sClient.Get(ctx, client.ObjectKeyFromObject(si), si) }).
			Should(Satisfy(isNotFound))
		Expect(esIndices(names.AllPattern())).To(BeEmpty())
	})

	It("leaves the data with deletionPolicy Retain", func() {
		ns := newNamespace("ret")
		createWorkspace(ns, 10)
		si := newIndex(ns, "kept", searchv1alpha1.DeletionRetain)
		names := esnames.For(ns, "kept")
		Eventually(siReady(si)).Should(haveReady(metav1.ConditionTrue, searchv1alpha1.ReasonReconciled))
		createSideIndices(names)

		Expect(k8sClient.Delete(ctx, si)).To(Succeed())
		Eventually(func() error { return k8sClient.Get(ctx, client.ObjectKeyFromObject(si), si) }).
			Should(Satisfy(isNotFound))
		Expect(esIndices(names.AllPattern())).To(ConsistOf(names.Physical(1), names.Orders(), names.Events(testMonth)))
	})

	It("gives an index beyond the plan PlanLimitReached and no backend index, until the limit rises", func() {
		ns := newNamespace("plan")
		ws := createWorkspace(ns, 1)
		first := newIndex(ns, "first", searchv1alpha1.DeletionDelete)
		Eventually(siReady(first)).Should(haveReady(metav1.ConditionTrue, searchv1alpha1.ReasonReconciled))
		second := newIndex(ns, "second", searchv1alpha1.DeletionDelete)
		Eventually(siReady(second)).Should(haveReady(metav1.ConditionFalse, searchv1alpha1.ReasonPlanLimitReached))
		Expect(esIndices(esnames.For(ns, "second").AllPattern())).To(BeEmpty())
		Expect(second.Status.PublicID).NotTo(BeEmpty())
		Eventually(eventReasons(second)).Should(ContainElements("PublicIDAssigned", searchv1alpha1.ReasonPlanLimitReached))

		By("raising the limit")
		updateWorkspace(ws.Name, func(ws *searchv1alpha1.Workspace) { ws.Spec.Plan.MaxIndexes = 2 })
		Eventually(siReady(second)).Should(haveReady(metav1.ConditionTrue, searchv1alpha1.ReasonReconciled))
		Expect(esIndices(esnames.For(ns, "second").AllPattern())).To(HaveLen(1))

		By("deleting an index frees its slot")
		updateWorkspace(ws.Name, func(ws *searchv1alpha1.Workspace) { ws.Spec.Plan.MaxIndexes = 1 })
		Eventually(siReady(second)).Should(haveReady(metav1.ConditionFalse, searchv1alpha1.ReasonPlanLimitReached))
		Expect(k8sClient.Delete(ctx, first)).To(Succeed())
		Eventually(siReady(second)).Should(haveReady(metav1.ConditionTrue, searchv1alpha1.ReasonReconciled))
	})

	It("reports WorkspaceNotFound until the Workspace exists", func() {
		ns := newNamespace("nows")
		si := newIndex(ns, "orphan", searchv1alpha1.DeletionDelete)
		Eventually(siReady(si)).Should(haveReady(metav1.ConditionFalse, searchv1alpha1.ReasonWorkspaceNotFound))
		Expect(esIndices(esnames.For(ns, "orphan").AllPattern())).To(BeEmpty())
		createWorkspace(ns, 10)
		Eventually(siReady(si)).Should(haveReady(metav1.ConditionTrue, searchv1alpha1.ReasonReconciled))
	})
})
