package controllers_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"testing"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/controllers"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/test/envtestenv"
	"github.com/aislehq/aisle/test/esbackend"
	"github.com/aislehq/aisle/test/esspec"
)

// The suite runs the three reconcilers in a manager against a real kube-apiserver and
// etcd (envtest) and a real search backend behind a proxy that specs can cut.
var (
	ctx       context.Context
	cancel    context.CancelFunc
	testEnv   *envtest.Environment
	k8sClient client.Client
	esClient  *elasticsearch.TypedClient
	proxy     *esbackend.Proxy
	recorder  *esspec.Recorder
	stopES    func() error
)

func TestControllers(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Controllers")
}

var _ = BeforeSuite(func() {
	logf.SetLogger(zap.New(zap.WriteTo(GinkgoWriter), zap.UseDevMode(true)))
	ctx, cancel = context.WithCancel(context.Background())
	SetDefaultEventuallyTimeout(30 * time.Second)
	SetDefaultEventuallyPollingInterval(100 * time.Millisecond)

	url, stop, err := esbackend.Start(ctx, GinkgoT().TempDir())
	Expect(err).NotTo(HaveOccurred())
	stopES = stop
	esClient, err = es.New(url)
	Expect(err).NotTo(HaveOccurred())
	// The operator's requests pass the proxy, then a recorder that fails the suite when
	// one of them is outside Elasticsearch's specification.
	recorder, err = esspec.Record(url, GinkgoWriter)
	Expect(err).NotTo(HaveOccurred())
	proxy, err = esbackend.NewProxy(recorder.URL())
	Expect(err).NotTo(HaveOccurred())
	operatorES, err := es.New(proxy.URL())
	Expect(err).NotTo(HaveOccurred())

	testEnv, err = envtestenv.New()
	Expect(err).NotTo(HaveOccurred())
	cfg, err := testEnv.Start()
	Expect(err).NotTo(HaveOccurred())
	k8sClient, err = client.New(cfg, client.Options{Scheme: testEnv.Scheme})
	Expect(err).NotTo(HaveOccurred())

	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:  testEnv.Scheme,
		Cache:   controllers.CacheOptions(),
		Metrics: metricsserver.Options{BindAddress: "0"},
	})
	Expect(err).NotTo(HaveOccurred())
	Expect(controllers.Setup(mgr, controllers.Options{
		ES: operatorES, RecordsRefresh: time.Second, MaxBackoff: time.Second,
	})).To(Succeed())
	go func() {
		defer GinkgoRecover()
		Expect(mgr.Start(ctx)).To(Succeed())
	}()
})

var _ = AfterSuite(func() {
	if cancel != nil {
		cancel()
	}
	if proxy != nil {
		proxy.Stop()
	}
	if testEnv != nil {
		Expect(testEnv.Stop()).To(Succeed())
	}
	if recorder != nil {
		Expect(recorder.Close()).To(Succeed())
	}
	if stopES != nil {
		Expect(stopES()).To(Succeed())
	}
})

// uniqueName returns a fresh DNS label, so that specs (and runs against a shared
// backend) never see each other's data.
func uniqueName(prefix string) string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return prefix + "-" + hex.EncodeToString(b)
}

// newWorkspace creates a namespace and, when maxIndexes > 0, its Workspace.
func newNamespace(prefix string) string {
	name := uniqueName(prefix)
	Expect(k8sClient.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}})).To(Succeed())
	return name
}

func createWorkspace(name string, maxIndexes int32) *searchv1alpha1.Workspace {
	ws := &searchv1alpha1.Workspace{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       searchv1alpha1.WorkspaceSpec{Plan: searchv1alpha1.PlanLimits{MaxIndexes: maxIndexes}},
	}
	Expect(k8sClient.Create(ctx, ws)).To(Succeed())
	return ws
}

// readyCondition returns the Ready condition of a fresh read of obj.
func readyCondition(obj client.Object, conds func() []metav1.Condition) func(Gomega) *metav1.Condition {
	return func(g Gomega) *metav1.Condition {
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(obj), obj)).To(Succeed())
		c := meta.FindStatusCondition(conds(), searchv1alpha1.ConditionReady)
		g.Expect(c).NotTo(BeNil())
		return c
	}
}

// haveReason matches a Ready condition with the status, reason and current generation.
func haveReady(status metav1.ConditionStatus, reason string) OmegaMatcher {
	return And(
		HaveField("Status", status),
		HaveField("Reason", reason),
	)
}
