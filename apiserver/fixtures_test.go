package apiserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/aislehq/aisle/api/securedkey"
	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/apiserver"
	"github.com/aislehq/aisle/internal/apikey"
)

// keys holds the plain key values of the fixtures, by role.
var keys = map[string]string{}

func createFixtures() {
	for _, ws := range []string{"acme", "globex"} {
		Expect(k8sClient.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ws}})).To(Succeed())
		Expect(k8sClient.Create(ctx, &searchv1alpha1.Workspace{ObjectMeta: metav1.ObjectMeta{Name: ws}})).To(Succeed())
		createIndex(ws, "products")
	}
	createIndex("acme", "staff-only")
	// The catalog specs create many indexes, each with its own keys, in their own workspace.
	Expect(k8sClient.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "shop"}})).To(Succeed())
	Expect(k8sClient.Create(ctx, &searchv1alpha1.Workspace{ObjectMeta: metav1.ObjectMeta{Name: "shop"},
		Spec: searchv1alpha1.WorkspaceSpec{Plan: searchv1alpha1.PlanLimits{MaxIndexes: 1000}}})).To(Succeed())
	createSearchFixtures()

	now := time.Now()
	issue("search", "acme", []searchv1alpha1.Scope{"search"}, nil, nil)
	issue("write", "acme", []searchv1alpha1.Scope{"write"}, nil, nil)
	issue("events", "acme", []searchv1alpha1.Scope{"events"}, nil, nil)
	issue("expired", "acme", []searchv1alpha1.Scope{"search", "write"}, &metav1.Time{Time: now.Add(-time.Hour)}, nil)
	issue("rotated-out", "acme", []searchv1alpha1.Scope{"search", "write"}, nil, &metav1.Time{Time: now.Add(-time.Minute)})
	issue("in-overlap", "acme", []searchv1alpha1.Scope{"search", "write"}, nil, &metav1.Time{Time: now.Add(time.Hour)})
	issue("globex", "globex", []searchv1alpha1.Scope{"search", "write"}, nil, nil)
	deriveSecuredFixtures(now)

	// The informer cache catches up asynchronously with what the fixtures wrote.
	Eventually(func() int {
		return get("/api/teams/globex/indexes/products/config", keys["globex"]).Code
	}).Should(Equal(http.StatusOK))
	Eventually(func() int {
		return get("/api/teams/acme/indexes/products/config", keys["in-overlap"]).Code
	}).Should(Equal(http.StatusOK))
}

// createIndex creates a SearchIndex whose public ID the operator takes from the annotation,
// and waits until the operator has made its alias.
func createIndex(ws, name string) {
	createIndexWith(ws, name, searchv1alpha1.IndexSettings{
		SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 3}},
		FacetFields:      []searchv1alpha1.FieldPath{"brand"},
	}, []searchv1alpha1.Origin{"https://shop.example"}, nil)
}

// issue creates an APIKey limited to the products index. With revokeAt, the key is a
// rotated-out previous key whose overlap ends then.
func issue(role, ws string, scopes []searchv1alpha1.Scope, expiresAt, revokeAt *metav1.Time) {
	issueFor(role, ws, scopes, []string{"products"}, expiresAt, revokeAt)
}

// issueFor creates an APIKey limited to indexes.
func issueFor(role, ws string, scopes []searchv1alpha1.Scope, indexes []string, expiresAt, revokeAt *metav1.Time) {
	key, err := apikey.New()
	Expect(err).NotTo(HaveOccurred())
	keys[role] = key
	k := &searchv1alpha1.APIKey{
		ObjectMeta: metav1.ObjectMeta{Namespace: ws, Name: role},
		Spec:       searchv1alpha1.APIKeySpec{Scopes: scopes, Indexes: indexes, ExpiresAt: expiresAt},
	}
	Expect(k8sClient.Create(ctx, k)).To(Succeed())
	issued := issuedKey(key)
	if revokeAt == nil {
		k.Status.Current = &issued
	} else {
		other, err := apikey.New()
		Expect(err).NotTo(HaveOccurred())
		k.Status.Current = new(issuedKey(other))
		issued.RevokeAt = revokeAt
		k.Status.Previous = []searchv1alpha1.IssuedKey{issued}
	}
	Expect(k8sClient.Status().Update(ctx, k)).To(Succeed())
}

// issuedKey is status's record of key, as the operator writes it.
func issuedKey(key string) searchv1alpha1.IssuedKey {
	return searchv1alpha1.IssuedKey{Prefix: apikey.Prefix(key), Hash: apikey.Hash(key), IssuedAt: metav1.Now(),
		SecuredKeyPublicKey: securedkey.PublicKey(key)}
}

// get sends a GET with an optional bearer key through the app.
func get(path, key string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	return do(req)
}

func do(req *http.Request) *httptest.ResponseRecorder {
	return doOn(server, req)
}

func doOn(s *apiserver.Server, req *http.Request) *httptest.ResponseRecorder {
	resp, err := s.App().Test(req, -1)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	rec := httptest.NewRecorder()
	rec.Code = resp.StatusCode
	for k, v := range resp.Header {
		rec.Header()[k] = v
	}
	body, err := io.ReadAll(resp.Body)
	Expect(err).NotTo(HaveOccurred())
	Expect(openapi.Response(req, resp, body)).To(Succeed())
	rec.Body.Write(body)
	return rec
}

func errorBody(message string) string {
	b, _ := json.Marshal(map[string]string{"error": message})
	return strings.TrimSpace(string(b))
}
