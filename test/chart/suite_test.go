// Package chart tests the Helm chart against a real kube-apiserver: what it renders is
// validated by the server, installed, upgraded and uninstalled with helm, and run as the
// chart's pods would run it, authenticated as the chart's ServiceAccounts.
package chart

import (
	"os"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/aislehq/aisle/internal/repo"
	"github.com/aislehq/aisle/test/aislebin"
	"github.com/aislehq/aisle/test/envtestenv"
)

func TestChart(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Helm chart")
}

// tools are the binaries and the cluster the specs share.
var tools struct {
	root       string // repository root
	chart      string // charts/aisle
	helm       string
	kubectl    string
	assets     string // folder of kubectl, for the quickstart's PATH
	aisle      string // bin/aisle built for this run
	kubeconfig string // cluster-admin, as a platform team's kubectl
	cfg        *rest.Config
	kube       *kubernetes.Clientset
}

var testEnv *envtest.Environment

var _ = BeforeSuite(func() {
	var err error
	tools.root, err = repo.Root()
	Expect(err).NotTo(HaveOccurred())
	tools.chart = filepath.Join(tools.root, "charts", "aisle")
	tools.helm = helmBinary(tools.root)
	tools.assets, err = repo.AssetsDir(tools.root)
	Expect(err).NotTo(HaveOccurred())
	tools.kubectl = filepath.Join(tools.assets, "kubectl")

	testEnv, err = envtestenv.New()
	Expect(err).NotTo(HaveOccurred())
	// The chart installs Aisle's CRDs itself; the cluster brings only the Prometheus
	// Operator's ServiceMonitor, which the chart can render.
	testEnv.CRDDirectoryPaths = []string{filepath.Join("testdata", "crds")}
	tools.cfg, err = testEnv.Start()
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(testEnv.Stop)
	tools.kube, err = kubernetes.NewForConfig(tools.cfg)
	Expect(err).NotTo(HaveOccurred())

	dir := GinkgoT().TempDir()
	tools.kubeconfig = filepath.Join(dir, "admin.kubeconfig")
	Expect(envtestenv.WriteKubeconfig(tools.cfg, tools.kubeconfig)).To(Succeed())

	tools.aisle, err = aislebin.Build()
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(os.RemoveAll, filepath.Dir(tools.aisle))
})

// helmBinary is $HELM (the Makefile sets it), or the pinned helm in bin/.
func helmBinary(root string) string {
	if h := os.Getenv("HELM"); h != "" {
		return h
	}
	found, err := filepath.Glob(filepath.Join(root, "bin", "helm-v*"))
	Expect(err).NotTo(HaveOccurred())
	Expect(found).NotTo(BeEmpty(), "helm is missing: run make helm (or make test)")
	return found[len(found)-1]
}
