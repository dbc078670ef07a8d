package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// checkTools fails with the commands to run when Chromium, playwright-core, axe-core,
// esbuild or instantsearch.js is missing.
func checkTools() {
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	_, err := os.Stat(chromium)
	Expect(err).NotTo(HaveOccurred(), "Chromium is missing: apt-get install -y chromium")
	for _, pkg := range []string{"playwright-core", "axe-core"} {
		_, err = os.Stat(filepath.Join(root, "test", "browser", "node_modules", pkg))
		Expect(err).NotTo(HaveOccurred(), "%s is missing: npm ci --prefix test/browser", pkg)
	}
	_, err = os.Stat(filepath.Join(root, "web", "node_modules", "esbuild"))
	Expect(err).NotTo(HaveOccurred(), "esbuild (the client's size check) is missing: npm ci --prefix web")
	_, err = os.Stat(filepath.Join(root, "web", "node_modules", "instantsearch.js"))
	Expect(err).NotTo(HaveOccurred(), "instantsearch.js (web/examples' page) is missing: npm ci --prefix web")
}

// servePage serves the test pages and the browser client on a loopback port and returns
// the port.
func servePage() int {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, filepath.Join(root, "test", "browser", "page", "index.html"))
	})
	mux.HandleFunc("/shop", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, filepath.Join(root, "test", "browser", "page", "shop.html"))
	})
	mux.HandleFunc("/secured", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, filepath.Join(root, "test", "browser", "page", "secured.html"))
	})
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("<!doctype html><title>elsewhere</title>"))
	})
	mux.HandleFunc("/aisle.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		http.ServeFile(w, r, filepath.Join(root, "web", "aisle.js"))
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	srv := &http.Server{Handler: mux}
	go func() { _ = srv.Serve(ln) }()
	DeferCleanup(srv.Close)
	return ln.Addr().(*net.TCPAddr).Port
}

// allowOrigin adds origin to the sample index's allowed origins and returns its public ID.
func allowOrigin(ctx context.Context, origin string) string {
	c := kubeClient()
	var idx searchv1alpha1.SearchIndex
	Expect(c.Get(ctx, types.NamespacedName{Namespace: env.Workspace, Name: "products"}, &idx)).To(Succeed())
	if !slices.Contains(idx.Spec.AllowedOrigins, searchv1alpha1.Origin(origin)) {
		patch := client.MergeFrom(idx.DeepCopy())
		idx.Spec.AllowedOrigins = append(idx.Spec.AllowedOrigins, searchv1alpha1.Origin(origin))
		Expect(c.Patch(ctx, &idx, patch)).To(Succeed())
	}
	return idx.Status.PublicID
}

type rendered struct {
	State string `json:"state"`
	Error string `json:"error"`
	Hits  []struct {
		Text string `json:"text"`
		HTML string `json:"html"`
	} `json:"hits"`
}

// browse opens the pages in Chromium and returns what each rendered.
func browse(pages map[string]string) map[string]rendered {
	var list []map[string]string
	for name, u := range pages {
		list = append(list, map[string]string{"name": name, "url": u})
	}
	res := map[string]rendered{}
	runNode("run.mjs", list, &res)
	return res
}

// runNode runs a script of test/browser with arg as JSON and reads what it prints into out.
func runNode(script string, arg, out any) {
	a, err := json.Marshal(arg)
	Expect(err).NotTo(HaveOccurred())
	cmd := exec.Command("node", filepath.Join(root, "test", "browser", script), string(a))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	printed, err := cmd.Output()
	Expect(err).NotTo(HaveOccurred(), "node %s: %s", script, stderr.String())
	Expect(json.Unmarshal(printed, out)).To(Succeed(), "output: %s", printed)
}

func kubeClient() client.Client {
	c, err := running.Client()
	Expect(err).NotTo(HaveOccurred())
	return c
}

func call(method, path, key, body string, headers map[string]string) int {
	status, _ := callFor(method, path, key, body, headers)
	return status
}

// callFor is call that also returns the answer's body, for a failure to show.
func callFor(method, path, key, body string, headers map[string]string) (int, string) {
	req, err := http.NewRequest(method, env.BaseURL+path, strings.NewReader(body))
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(raw)
}

var _ = Describe("Public search from a web page", func() {
	It("renders hits on an allowed origin, and the browser refuses the answer on another", func(ctx SpecContext) {
		port := servePage()
		allowed := fmt.Sprintf("http://localhost:%d", port)
		other := fmt.Sprintf("http://127.0.0.1:%d", port)

		By("allowing the page's origin on the sample index")
		publicID := allowOrigin(ctx, allowed)

		By("writing records")
		base := "/api/teams/" + env.Workspace + "/indexes/products"
		Expect(call(http.MethodPost, base+"/records", env.Keys["write"],
			`{"records": [{"objectID": "a", "name": "Red <running> shoe", "inStock": true}, {"objectID": "b", "name": "Blue sock", "inStock": true}, {"objectID": "c", "name": "Old shoe", "inStock": false}]}`, nil)).
			To(Equal(http.StatusAccepted))
		searchPath := "/api/public/indexes/" + publicID + "/search"
		Eventually(func() int {
			return call(http.MethodPost, searchPath, "", `{"q": "shoe"}`, map[string]string{"Origin": allowed})
		}).Should(Equal(http.StatusOK))

		query := "/?" + url.Values{"api": {env.BaseURL}, "publicId": {publicID}, "q": {"shoe"}}.Encode()
		res := browse(map[string]string{"allowed": allowed + query, "other": other + query})

		Expect(res["allowed"].State).To(Equal("done"), "error: %s", res["allowed"].Error)
		Expect(res["allowed"].Hits).To(HaveLen(1))
		Expect(res["allowed"].Hits[0].Text).To(Equal("Red <running> shoe"))
		Expect(res["allowed"].Hits[0].HTML).To(Equal("Red &lt;running&gt; <em>shoe</em>"))

		Expect(res["other"].State).To(Equal("error"))
		Expect(res["other"].Error).To(ContainSubstring("Failed to fetch"))
		Expect(res["other"].Hits).To(BeEmpty())
	})
})
