package apiserver_test

import (
	"context"
	"io"
	"log/slog"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/aislehq/aisle/apiserver"
	"github.com/aislehq/aisle/internal/tenancy"
	"github.com/aislehq/aisle/test/envtestenv"
)

// The API server reads tenants through informers, so these specs run it against a real
// kube-apiserver; fixtures write APIKey status the way the operator does.
var (
	testEnv   *envtest.Environment
	k8sClient client.Client
	registry  *tenancy.Registry
	server    *apiserver.Server
	ctx       context.Context
	cancel    context.CancelFunc
)

func TestAPIServer(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "API server")
}

var _ = BeforeSuite(func() {
	ctx, cancel = context.WithCancel(context.Background())
	var err error
	testEnv, err = envtestenv.New()
	Expect(err).NotTo(HaveOccurred())
	cfg, err := testEnv.Start()
	Expect(err).NotTo(HaveOccurred())
	k8sClient, err = client.New(cfg, client.Options{Scheme: testEnv.Scheme})
	Expect(err).NotTo(HaveOccurred())

	registry, err = tenancy.NewRegistry(ctx, cfg, testEnv.Scheme, clock.RealClock{})
	Expect(err).NotTo(HaveOccurred())
	go func() {
		defer GinkgoRecover()
		Expect(registry.Start(ctx)).To(Succeed())
	}()
	Expect(registry.WaitForSync(ctx)).To(BeTrue())
	server = apiserver.New(apiserver.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, registry)
	server.SetReady(true)
	createFixtures()
})

var _ = AfterSuite(func() {
	if cancel != nil {
		cancel()
	}
	if testEnv != nil {
		Expect(testEnv.Stop()).To(Succeed())
	}
})
