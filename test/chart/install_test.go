package chart

import (
	"context"
	"fmt"
	"net/http"
	"os"
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

	It("runs what it renders, as its ServiceAccounts, until the operator and API server are ready", func() {
		for _, p := range podsOf(manifest, dir) {
			sessions = append(sessions, p.start(manifest, dir))
		}
		for _, url := range []string{
			"http://127.0.0.1:" + values["operator.healthPort"] + "/readyz",
			"http://127.0.0.1:" + values["apiserver.port"] + "/readyz",
		} {
			Eventually(httpStatus).WithArguments(url).WithTimeout(defaultTimeout).Should(Equal(http.StatusOK), url)
		}
	})

	It("serves the quickstart of its notes: workspace, index, keys, a record written and found", func() {
		notes := run("", tools.helm, "get", "notes", "aisle", "--namespace", namespace)
		script, search := quickstart(notes, "http://127.0.0.1:"+values["apiserver.port"])
		// The write is applied asynchronously: the search is repeated until it finds it.
		out := shell(script + `
for attempt in $(seq 120); do
  if out=$(` + search + `) && [[ $out == *'"sku-1"'* ]]; then echo "$out"; exit 0; fi
  sleep 1
done
echo "the search never found the record: $out"; exit 1`)
		Expect(out).To(ContainSubstring(`"sku-1"`))
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

// quickstart takes the commands of the notes (the lines indented by four spaces) and
// returns them without the last, the search, which is returned apart to be repeated
// until the write is searchable. Reaching the API server is the one change: the notes
// port-forward to the Service, this test calls the API server process directly.
func quickstart(notes, apiURL string) (script, search string) {
	var lines []string
	for _, l := range strings.Split(notes, "\n") {
		if strings.HasPrefix(l, "    ") {
			lines = append(lines, strings.TrimPrefix(l, "    "))
		}
	}
	Expect(len(lines)).To(BeNumerically(">", 5), "the notes hold no quickstart:\n%s", notes)
	var kept []string
	replaced := 0
	for _, l := range lines {
		switch {
		case strings.Contains(l, " port-forward "):
			replaced++
		case strings.HasPrefix(l, "AISLE_URL="):
			kept = append(kept, "AISLE_URL="+apiURL)
			replaced++
		default:
			kept = append(kept, l)
		}
	}
	Expect(replaced).To(Equal(2), "the notes reach the API server with a port-forward and AISLE_URL")
	return strings.Join(kept[:len(kept)-1], "\n"), kept[len(kept)-1]
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
