// Package transfer runs aisle export and import, and Google Merchant Center feed
// imports, against the whole system (kube-apiserver, etcd, the embedded engine, the
// operator and the API server), as a shop would run them against its deployment.
package transfer

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/apikey"
	"github.com/aislehq/aisle/internal/devenv"
	"github.com/aislehq/aisle/internal/transfer"
	"github.com/aislehq/aisle/test/system"
)

func TestTransfer(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Export, import and feeds")
}

const workspace = "demo"

// The suite's indexes: with the sample's products index, the workspace's five (its plan's maxIndexes); specs run in any order, so each index is one spec container's.
var indexes = []string{"source", "copy", "feed", "cli"}

var (
	running *system.Running
	key     string
)

var _ = BeforeSuite(func(ctx SpecContext) {
	var err error
	running, err = system.Start(GinkgoT().TempDir())
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { Expect(running.Stop()).To(Succeed()) })
	c, err := running.Client()
	Expect(err).NotTo(HaveOccurred())
	for _, name := range indexes {
		Expect(c.Create(ctx, &searchv1alpha1.SearchIndex{ObjectMeta: metav1.ObjectMeta{Namespace: workspace, Name: name},
			Spec: searchv1alpha1.SearchIndexSpec{Settings: searchv1alpha1.IndexSettings{Language: searchv1alpha1.LanguageEnglish}}})).To(Succeed())
	}
	Expect(c.Create(ctx, &searchv1alpha1.APIKey{ObjectMeta: metav1.ObjectMeta{Namespace: workspace, Name: "transfer"},
		Spec: searchv1alpha1.APIKeySpec{Scopes: []searchv1alpha1.Scope{searchv1alpha1.ScopeSearch, searchv1alpha1.ScopeWrite}, Indexes: indexes}})).To(Succeed())
	Eventually(func() (bool, error) {
		ok, _, err := devenv.Ready(ctx, c, workspace)
		return ok, err
	}).WithTimeout(2 * time.Minute).WithPolling(200 * time.Millisecond).Should(BeTrue())
	var k searchv1alpha1.APIKey
	Expect(c.Get(ctx, types.NamespacedName{Namespace: workspace, Name: "transfer"}, &k)).To(Succeed())
	var secret corev1.Secret
	Expect(c.Get(ctx, types.NamespacedName{Namespace: workspace, Name: k.Status.SecretName}, &secret)).To(Succeed())
	key = string(secret.Data[apikey.SecretKey])
}, NodeTimeout(5*time.Minute))

// client is the importer's client of an index, through base (the API server or a proxy).
func client(base, index string) *transfer.Client {
	return &transfer.Client{BaseURL: base, Workspace: workspace, Index: index, Key: key,
		Retry: transfer.RetryPolicy{Attempts: 5, Base: 50 * time.Millisecond, Max: time.Second}}
}

// api calls an index's endpoint directly and decodes the answer.
func api(ctx context.Context, method, index, path string, body any, out any) int {
	var reader io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		Expect(err).NotTo(HaveOccurred())
		reader = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, running.Env.BaseURL+"/api/teams/"+workspace+"/indexes/"+index+path, reader)
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	Expect(err).NotTo(HaveOccurred())
	if out != nil {
		Expect(json.Unmarshal(data, out)).To(Succeed(), "%s %s: %s", method, path, data)
	}
	return resp.StatusCode
}

func recordCount(ctx context.Context, index string) int64 {
	var r transfer.Receipt
	Expect(api(ctx, http.MethodGet, index, "/indexing", nil, &r)).To(Equal(http.StatusOK))
	return r.RecordCount
}

// proxy stands between the importer and the real API server, and answers a request
// itself when refuse says so: a server refusing a batch, or overloaded for a moment.
func proxy(refuse func(r *http.Request) (status int, retryAfter string)) *httptest.Server {
	target, err := url.Parse(running.Env.BaseURL)
	Expect(err).NotTo(HaveOccurred())
	rp := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if status, retryAfter := refuse(r); status != 0 {
			if retryAfter != "" {
				w.Header().Set("Retry-After", retryAfter)
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = io.WriteString(w, `{"error":"refused by the test's proxy"}`)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	DeferCleanup(srv.Close)
	return srv
}
