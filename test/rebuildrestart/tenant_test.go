package rebuildrestart

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
)

// tenant is a fresh workspace with one index, products, and a key with the search and
// write scopes, issued by the running operator.
type tenant struct {
	ns, base, key string
	names         esnames.Index
}

func newTenant(prefix string) tenant {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	ns := prefix + "-" + hex.EncodeToString(b)
	create := func(obj client.Object) { ExpectWithOffset(1, k8sClient.Create(ctx, obj)).To(Succeed()) }
	create(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})
	create(&searchv1alpha1.Workspace{ObjectMeta: metav1.ObjectMeta{Name: ns},
		Spec: searchv1alpha1.WorkspaceSpec{Plan: searchv1alpha1.PlanLimits{MaxIndexes: 5}}})
	si := &searchv1alpha1.SearchIndex{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "products"},
		Spec: searchv1alpha1.SearchIndexSpec{DeletionPolicy: searchv1alpha1.DeletionDelete, Settings: searchv1alpha1.IndexSettings{
			SearchableFields: []searchv1alpha1.SearchableField{{Path: "name"}}}}}
	create(si)
	// The next spec's operator finishes the deletion, instead of rebuilding this index.
	DeferCleanup(func() { Expect(client.IgnoreNotFound(k8sClient.Delete(ctx, si))).To(Succeed()) })
	create(&searchv1alpha1.APIKey{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "shop"},
		Spec: searchv1alpha1.APIKeySpec{Indexes: []string{"products"},
			Scopes: []searchv1alpha1.Scope{searchv1alpha1.ScopeSearch, searchv1alpha1.ScopeWrite}}})
	t := tenant{ns: ns, base: "/api/teams/" + ns + "/indexes/products", names: esnames.For(ns, "products")}
	Eventually(func(g Gomega) {
		var s corev1.Secret
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "shop-apikey"}, &s)).To(Succeed())
		t.key = string(s.Data["apiKey"])
	}).Should(Succeed())
	Eventually(func() int { return t.call(http.MethodGet, "/indexing", nil).status }).Should(Equal(http.StatusOK))
	return t
}

type answer struct {
	status int
	body   []byte
}

// send calls the API server; it is safe in goroutines.
func (t tenant) send(method, path string, body any) (answer, error) {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return answer{}, err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, apiURL+t.base+path, rd)
	if err != nil {
		return answer{}, err
	}
	req.Header.Set("Authorization", "Bearer "+t.key)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer func() { _ = res.Body.Close() }()
	data, err := io.ReadAll(res.Body)
	return answer{status: res.StatusCode, body: data}, err
}

func (t tenant) call(method, path string, body any) answer {
	a, err := t.send(method, path, body)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return a
}

// putRecords replaces the catalog with n records base-0 … base-(n-1).
func (t tenant) putRecords(n int) {
	recs := make([]map[string]any, n)
	for i := range recs {
		recs[i] = map[string]any{"objectID": fmt.Sprintf("base-%d", i), "name": fmt.Sprintf("product %d", i)}
	}
	a := t.call(http.MethodPut, "/records", map[string]any{"records": recs})
	ExpectWithOffset(1, a.status).To(Equal(http.StatusAccepted), string(a.body))
}

// putConfig replaces the settings and returns the generation that asks for them.
func (t tenant) putConfig(settings map[string]any) int64 {
	a := t.call(http.MethodPut, "/config", settings)
	ExpectWithOffset(1, a.status).To(Equal(http.StatusOK), string(a.body))
	return t.index().Generation
}

func (t tenant) index() *searchv1alpha1.SearchIndex {
	var si searchv1alpha1.SearchIndex
	ExpectWithOffset(2, k8sClient.Get(ctx, client.ObjectKey{Namespace: t.ns, Name: "products"}, &si)).To(Succeed())
	return &si
}

// rebuild is status.rebuild when it is for generation gen, else nil.
func (t tenant) rebuild(gen int64) *searchv1alpha1.RebuildStatus {
	if st := t.index().Status.Rebuild; st != nil && st.Generation == gen {
		return st
	}
	return nil
}

// waitRebuilt waits until the rebuild of generation gen has succeeded, showing observe
// (if set) every status of the rebuild it reads meanwhile.
func (t tenant) waitRebuilt(gen int64, observe func(*searchv1alpha1.RebuildStatus)) *searchv1alpha1.RebuildStatus {
	var st *searchv1alpha1.RebuildStatus
	EventuallyWithOffset(1, func(g Gomega) {
		st = t.rebuild(gen)
		g.Expect(st).NotTo(BeNil())
		if observe != nil {
			observe(st)
		}
		g.Expect(st.State).To(Equal(searchv1alpha1.RebuildSucceeded), st.Error)
	}).WithTimeout(5 * time.Minute).WithPolling(100 * time.Millisecond).Should(Succeed())
	return st
}

// waitHeld waits until the gate holds the copy of generation gen (held closes) and
// status.rebuild shows the documents done its checkpoint recorded before the held page.
func (t tenant) waitHeld(gen int64, held <-chan struct{}) searchv1alpha1.RebuildStatus {
	EventuallyWithOffset(1, held).WithTimeout(3*time.Minute).Should(BeClosed(), "the copy reached the gate")
	done := t.checkpointDone()
	ExpectWithOffset(1, done).To(BeNumerically(">", 0), "pages were copied before the gate held")
	var st *searchv1alpha1.RebuildStatus
	EventuallyWithOffset(1, func(g Gomega) {
		st = t.rebuild(gen)
		g.Expect(st).NotTo(BeNil())
		g.Expect(st.DocumentsDone).To(Equal(done))
	}).Should(Succeed())
	ExpectWithOffset(1, st.State).To(Equal(searchv1alpha1.RebuildRunning))
	ExpectWithOffset(1, st.DocumentsDone).To(BeNumerically("<", st.DocumentsTotal), "the copy is held partway")
	return *st
}

// source is the physical index behind the tenant's alias, which a rebuild copies: read
// from the backend, as status.physicalIndex may not show a replacement yet.
func (t tenant) source() string {
	res, err := esClient.Indices.GetAlias().Name(t.names.Alias()).Do(ctx)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	ExpectWithOffset(1, res).To(HaveLen(1))
	return slices.Collect(maps.Keys(res))[0]
}

// physical lists the physical indices of the tenant's index.
func (t tenant) physical() []string {
	res, err := esClient.Indices.Get(t.names.PhysicalPattern()).AllowNoIndices(true).Do(ctx)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return slices.Collect(maps.Keys(res))
}

// count is the number of records behind the alias.
func (t tenant) count() int64 {
	res, err := esClient.Count().Index(t.names.Alias()).Do(ctx)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return res.Count
}

// eventReasons lists the reasons of the events about the tenant's index.
func (t tenant) eventReasons() []string {
	var list eventsv1.EventList
	ExpectWithOffset(1, k8sClient.List(ctx, &list, client.InNamespace(t.ns))).To(Succeed())
	var out []string
	for _, e := range list.Items {
		if e.Regarding.Name == "products" && e.Regarding.Kind == "SearchIndex" {
			out = append(out, e.Reason)
		}
	}
	return out
}

// version is the version in the answer to GET /records/{id}.
func (a answer) version() int64 {
	var got struct {
		Version int64 `json:"version"`
	}
	ExpectWithOffset(1, json.Unmarshal(a.body, &got)).To(Succeed())
	return got.Version
}

func recordID(i int) string { return fmt.Sprintf("base-%d", i) }

// checkpointDone is the number of documents the rebuild checkpoint of the tenant's index
// records as copied.
func (t tenant) checkpointDone() int64 {
	res, err := esClient.Get(t.names.Control(), "rebuild").Do(ctx)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	var doc struct {
		Done int64 `json:"done"`
	}
	ExpectWithOffset(1, json.Unmarshal(res.Source_, &doc)).To(Succeed())
	return doc.Done
}

// checkpointExists reports whether a rebuild checkpoint of the tenant's index is left.
func (t tenant) checkpointExists() bool {
	ok, err := esClient.Exists(t.names.Control(), "rebuild").Do(ctx)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return ok
}
