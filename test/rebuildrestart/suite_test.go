package rebuildrestart

import (
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/test/aislebin"
	"github.com/aislehq/aisle/test/envtestenv"
	"github.com/aislehq/aisle/test/esbackend"
	"github.com/aislehq/aisle/test/esspec"
)

// The suite runs the operator and the API server as `aisle` processes, so that a spec
// can kill the operator with SIGKILL in the middle of a settings rebuild and start
// another, against a real kube-apiserver and etcd (envtest) and the embedded engine.
// No other operator runs: the processes this suite starts are the only ones. The
// operators reach the engine through a gate that holds the rebuild's copy where the spec
// kills the operator.
var (
	ctx       context.Context
	cancel    context.CancelFunc
	k8sClient client.Client
	esClient  *elasticsearch.TypedClient // the specs' own client, straight to the backend
	esURL     string                     // the backend as the `aisle` processes reach it
	kubeconf  string
	aisle     string
	apiURL    string
	gate      *esbackend.Gate
)

func TestRebuildRestart(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Rebuilds across operator restarts")
}

var _ = BeforeSuite(func() {
	ctx, cancel = context.WithCancel(context.Background())
	DeferCleanup(cancel)
	SetDefaultEventuallyTimeout(time.Minute)
	SetDefaultEventuallyPollingInterval(200 * time.Millisecond)

	backendURL, stopES, err := esbackend.Start(ctx, GinkgoT().TempDir())
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(stopES)
	esClient, err = es.New(backendURL)
	Expect(err).NotTo(HaveOccurred())
	// The `aisle` processes go through a recorder, which fails the suite when one of them
	// sent a request Elasticsearch would refuse.
	recorder, err := esspec.Record(backendURL, GinkgoWriter)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(recorder.Close)
	esURL = recorder.URL()
	gate, err = esbackend.NewGate(esURL)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(gate.Close)

	testEnv, err := envtestenv.New()
	Expect(err).NotTo(HaveOccurred())
	cfg, err := testEnv.Start()
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(testEnv.Stop)
	k8sClient, err = client.New(cfg, client.Options{Scheme: testEnv.Scheme})
	Expect(err).NotTo(HaveOccurred())
	kubeconf = filepath.Join(GinkgoT().TempDir(), "kubeconfig")
	Expect(envtestenv.WriteKubeconfig(cfg, kubeconf)).To(Succeed())

	aisle, err = aislebin.Build()
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { _ = os.RemoveAll(filepath.Dir(aisle)) })
	apiURL = startAPIServer()
})

// startAisle runs `aisle args...`; the process is killed when the spec (or suite) ends.
func startAisle(args ...string) *exec.Cmd {
	cmd := exec.Command(aisle, args...)
	cmd.Stdout, cmd.Stderr = GinkgoWriter, GinkgoWriter
	Expect(cmd.Start()).To(Succeed())
	DeferCleanup(func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() })
	return cmd
}

// startOperator runs `aisle operator` with leader election, as in a cluster (a second
// operator reconciles only once the first one's leader lease has run out), reaching the
// engine through the gate.
func startOperator() *exec.Cmd {
	return startAisle("operator", "--kubeconfig", kubeconf, "--es-url", gate.URL(),
		"--metrics-bind-address", "0", "--health-probe-bind-address", "0",
		"--leader-elect=true", "--leader-election-namespace", "default")
}

// crash stops a process as a crash would: no deferred work, no lease released.
func crash(cmd *exec.Cmd) {
	Expect(cmd.Process.Signal(syscall.SIGKILL)).To(Succeed())
	_, _ = cmd.Process.Wait()
}

func startAPIServer() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	addr := ln.Addr().String()
	Expect(ln.Close()).To(Succeed())
	startAisle("apiserver", "--kubeconfig", kubeconf, "--es-url", esURL, "--listen", addr)
	Eventually(func() int {
		r, err := http.Get("http://" + addr + "/readyz")
		if err != nil {
			return 0
		}
		_ = r.Body.Close()
		return r.StatusCode
	}).Should(Equal(http.StatusOK))
	return "http://" + addr
}
