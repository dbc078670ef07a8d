package apiserver_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/aislehq/aisle/apiserver"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/search"
	"github.com/aislehq/aisle/internal/tenancy"
	"github.com/aislehq/aisle/internal/usage"
	"github.com/aislehq/aisle/test/envtestenv"
	"github.com/aislehq/aisle/test/esbackend"
)

// The API server reads tenants through informers, so these specs run it against a real
// kube-apiserver; fixtures write APIKey status the way the operator does.
var (
	testEnv   *envtest.Environment
	k8sClient client.Client
	registry  *tenancy.Registry
	server    *apiserver.Server
	esClient  *elasticsearch.TypedClient
	searchSvc *search.Service
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
	esURL, stopES, err := esbackend.Start(ctx, GinkgoT().TempDir())
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(stopES)
	esClient, err = es.New(esURL)
	Expect(err).NotTo(HaveOccurred())
	searchSvc = search.New(esClient)
	server = newServer(apiserver.PublicLimits{})
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

// newServer builds an API server on the suite's registry and search backend, with its
// own usage meter (flushed every 100 ms) and the given public rate limits.
func newServer(limits apiserver.PublicLimits) *apiserver.Server {
	meter := usage.New(esClient, esnames.Usage(esnames.DefaultPrefix))
	go meter.Run(ctx, 100*time.Millisecond)
	s := apiserver.New(apiserver.Config{
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Search: searchSvc, Usage: meter, Writer: k8sClient, PublicLimits: limits,
	}, registry)
	s.SetReady(true)
	return s
}
