package chart

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gexec"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

const defaultTimeout = 2 * time.Minute

var _ = Describe("A release of the chart", Ordered, func() {
	const namespace = "aisle-system"
	var values map[string]string
	var manifest []*unstructured.Unstructured
	var dir string
	var sessions []*gexec.Session
	ctx := context.Background()

	BeforeAll(func() {
		dir = GinkgoT().TempDir()
		DeferCleanup(func() { stop(sessions) })
		// Ports of this machine, as every container gets its own network in a pod.
		values = map[string]string{
			"apiserver.port":         fmt.Sprint(freePort()),
			"operator.metricsPort":   fmt.Sprint(freePort()),
			"operator.healthPort":    fmt.Sprint(freePort()),
			"engine.port":            fmt.Sprint(freePort()),
			"operator.logLevel":      "debug",
			"apiserver.service.port": "80",
		}
	})

	It("refuses a misspelt value before it creates anything", func() {
		out, err := tryRun("", tools.helm, "install", "aisle", tools.chart, "--namespace", namespace, "--create-namespace",
			"--set", "apiserver.replica=3")
		Expect(err).To(HaveOccurred())
		Expect(out).To(ContainSubstring("replica"))
		Expect(run("", tools.helm, "list", "--all", "--namespace", namespace, "--short")).To(BeEmpty())
	})

	It("installs: the CRDs, the workloads, their ServiceAccounts and RBAC exist", func() {
		run("", tools.helm, append([]string{"install", "aisle", tools.chart, "--namespace", namespace, "--create-namespace"},
			helmArgs(values)...)...)
		manifest = objects(run("", tools.helm, "get", "manifest", "aisle", "--namespace", namespace))
		_, err := tools.kube.AppsV1().Deployments(namespace).Get(ctx, "aisle-operator", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		_, err = tools.kube.AppsV1().StatefulSets(namespace).Get(ctx, "aisle-engine", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		_, err = tools.kube.RbacV1().ClusterRoles().Get(ctx, "aisle-apiserver", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		out := run("", tools.kubectl, "get", "crd", "-o", "name")
		Expect(out).To(ContainSubstring("workspaces.search.aisle.dev"))
	})

	It("gives the API server's ServiceAccount no more than its role: reading Secrets is forbidden", func() {
		kc := serviceAccountKubeconfig(namespace, "aisle-apiserver", GinkgoT().TempDir())
		cfg, err := clientcmd.BuildConfigFromFlags("", kc)
		Expect(err).NotTo(HaveOccurred())
		asAPIServer := kubernetes.NewForConfigOrDie(cfg)
		_, err = asAPIServer.CoreV1().Secrets(namespace).List(ctx, metav1.ListOptions{})
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "want Forbidden, got %v", err)
	})

	It("runs what it renders, as its ServiceAccounts, until every rendered probe passes", func() {
		pods := podsOf(manifest, dir)
		Expect(pods).To(HaveLen(3), "the operator, the API server and the engine")
		for _, p := range pods {
			sessions = append(sessions, p.start(manifest, dir))
		}
		for _, p := range pods {
			for _, url := range p.probes() {
				Eventually(httpStatus).WithArguments(url).WithTimeout(defaultTimeout).Should(Equal(http.StatusOK), p.name+": "+url)
			}
		}
	})

	It("runs the operator as the leader: it holds the election's Lease in the release's namespace", func() {
		// The lease is named by aisle operator's LeaderElectionID.
		Eventually(func() string {
			lease, err := tools.kube.CoordinationV1().Leases(namespace).Get(ctx, "aisle-operator.search.aisle.dev", metav1.GetOptions{})
			if err != nil || lease.Spec.HolderIdentity == nil {
				return ""
			}
			return *lease.Spec.HolderIdentity
		}).WithTimeout(defaultTimeout).ShouldNot(BeEmpty())
	})

	It("serves the quickstart of its notes: workspace, index, keys, a record written and found", func() {
		notes := run("", tools.helm, "get", "notes", "aisle", "--namespace", namespace)
		// Run once, as a user would: a write's 202 means it is searchable, so the search
		// right after it must find the record.
		out := shell(quickstart(notes, "http://127.0.0.1:"+values["apiserver.port"]))
		Expect(out).To(ContainSubstring(`"objectID":"sku-1"`))
	})

	It("changes an index's settings through the API server, which patches the SearchIndex as its ServiceAccount", func() {
		secret, err := tools.kube.CoreV1().Secrets("demo").Get(ctx, "write-apikey", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		settings := `{"language":"en","searchableFields":[{"path":"name","weight":3},{"path":"brand"}],` +
			`"filterableFields":["brand","price"],"facetFields":["brand"]}`
		req, err := http.NewRequest(http.MethodPut,
			"http://127.0.0.1:"+values["apiserver.port"]+"/api/teams/demo/indexes/products/config", strings.NewReader(settings))
		Expect(err).NotTo(HaveOccurred())
		req.Header.Set("Authorization", "Bearer "+string(secret.Data["apiKey"]))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		Expect(err).NotTo(HaveOccurred())
		body, err := io.ReadAll(resp.Body)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Body.Close()).To(Succeed())
		Expect(resp.StatusCode).To(Equal(http.StatusOK), string(body))
		Expect(run("", tools.kubectl, "get", "searchindex", "products", "-n", "demo", "-o", "jsonpath={.spec.settings.facetFields}")).
			To(Equal(`["brand"]`))
	})

	It("upgrades the CRDs Helm installed with the command of docs/install.md", func() {
		doc, err := os.ReadFile(filepath.Join(tools.root, "docs", "install.md"))
		Expect(err).NotTo(HaveOccurred())
		command := regexp.MustCompile(`(?m)^kubectl apply .*charts/aisle/crds/$`).FindString(string(doc))
		Expect(command).NotTo(BeEmpty(), "docs/install.md gives no command that upgrades the CRDs")
		Expect(shell("cd " + tools.root + "\n" + command)).To(ContainSubstring("searchindexes.search.aisle.dev serverside-applied"))
	})

	It("upgrades with a changed value: the API server gets 3 replicas and each a third of the limits", func() {
		run("", tools.helm, append([]string{"upgrade", "aisle", tools.chart, "--namespace", namespace, "--set", "apiserver.replicas=3"},
			helmArgs(values)...)...)
		d, err := tools.kube.AppsV1().Deployments(namespace).Get(ctx, "aisle-apiserver", metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(*d.Spec.Replicas).To(BeEquivalentTo(3))
		Expect(d.Spec.Template.Spec.Containers[0].Args).To(ContainElement("--public-search-per-visitor=80"))
	})

	It("uninstalls: its objects go, the CRDs and the workspaces' data stay", func() {
		run("", tools.helm, "uninstall", "aisle", "--namespace", namespace)
		Eventually(func() bool {
			_, err := tools.kube.AppsV1().Deployments(namespace).Get(ctx, "aisle-apiserver", metav1.GetOptions{})
			return apierrors.IsNotFound(err)
		}).WithTimeout(defaultTimeout).Should(BeTrue())
		_, err := tools.kube.RbacV1().ClusterRoles().Get(ctx, "aisle-operator", metav1.GetOptions{})
		Expect(apierrors.IsNotFound(err)).To(BeTrue(), "the ClusterRole goes with the release")
		Expect(run("", tools.kubectl, "get", "searchindexes", "-n", "demo", "-o", "name")).To(ContainSubstring("products"))
	})
})

// quickstart takes the commands of the notes (the lines indented by four spaces).
// Reaching the API server is the one change: the notes port-forward to the Service, this
// test calls the API server process directly.
func quickstart(notes, apiURL string) string {
	var kept []string
	replaced := 0
	for _, l := range strings.Split(notes, "\n") {
		l, ok := strings.CutPrefix(l, "    ")
		switch {
		case !ok: // prose around the commands
		case strings.Contains(l, " port-forward "):
			replaced++
		case strings.HasPrefix(l, "AISLE_URL="):
			kept = append(kept, "AISLE_URL="+apiURL)
			replaced++
		default:
			kept = append(kept, l)
		}
	}
	Expect(len(kept)).To(BeNumerically(">", 5), "the notes hold no quickstart:\n%s", notes)
	Expect(replaced).To(Equal(2), "the notes reach the API server with a port-forward and AISLE_URL")
	return strings.Join(kept, "\n")
}

// shell runs a script in bash with the admin kubeconfig and kubectl on the PATH, as a
// platform team's shell would.
func shell(script string) string {
	out, err := tryShell(script)
	Expect(err).NotTo(HaveOccurred(), out)
	return out
}

func tryShell(script string) (string, error) {
	return tryRun("set -euo pipefail\nexport PATH="+tools.assets+":"+os.Getenv("PATH")+"\n"+script, "bash", "-s")
}

func httpStatus(url string) (int, error) {
	resp, err := http.Get(url)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return resp.StatusCode, nil
}
