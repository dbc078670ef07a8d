package apiserver_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/aislehq/aisle/internal/repo"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/go-logr/logr"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/client-go/rest"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/aislehq/aisle/apiserver"
	"github.com/aislehq/aisle/controllers"
	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/embedder"
	"github.com/aislehq/aisle/internal/embedding"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/events"
	"github.com/aislehq/aisle/internal/recommend"
	"github.com/aislehq/aisle/internal/search"
	"github.com/aislehq/aisle/internal/searchlog"
	"github.com/aislehq/aisle/internal/settingsfence"
	"github.com/aislehq/aisle/internal/tenancy"
	"github.com/aislehq/aisle/internal/usage"
	"github.com/aislehq/aisle/test/envtestenv"
	"github.com/aislehq/aisle/test/esbackend"
	"github.com/aislehq/aisle/test/esspec"
	"github.com/aislehq/aisle/test/openapicheck"
)

// The API server reads tenants through informers, so these specs run it against a real
// kube-apiserver; fixtures write APIKey status the way the operator does. Two replicas
// (each with its own registry and catalog service) listen on loopback ports against one
// search engine; the SearchIndex reconciler creates the alias and runs the janitor.
var (
	testEnv   *envtest.Environment
	k8sClient client.Client
	server    *apiserver.Server
	registry  *tenancy.Registry          // the first replica's, for specs that build their own server
	replicas  []string                   // base URLs of the two listening replicas
	esClient  *elasticsearch.TypedClient // the specs' own client, straight to the backend
	esURL     string                     // the backend as the API servers and the operator reach it
	kubeconf  string
	openapi   *openapicheck.Validator
	searchSvc *search.Service
	ctx       context.Context
	cancel    context.CancelFunc
)

// Lease and TTL settings short enough for the janitor specs.
var catalogConfig = catalog.Config{BuildLease: 3 * time.Second, StageTTL: 15 * time.Second}

func TestAPIServer(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "API server")
}

var _ = BeforeSuite(func() {
	// The operator's logs are dropped like the API servers' (see buildServer); unset, the
	// controller-runtime prints a warning with a stack trace into verbose runs.
	ctrl.SetLogger(logr.Discard())
	ctx, cancel = context.WithCancel(context.Background())
	SetDefaultEventuallyTimeout(30 * time.Second)
	SetDefaultEventuallyPollingInterval(100 * time.Millisecond)
	root, err := repo.Root()
	Expect(err).NotTo(HaveOccurred())
	openapi, err = openapicheck.Load(filepath.Join(root, "docs", "openapi.yaml"))
	Expect(err).NotTo(HaveOccurred())

	backendURL, stopES, err := esbackend.Start(ctx, GinkgoT().TempDir())
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(stopES)
	esClient, err = es.New(backendURL)
	Expect(err).NotTo(HaveOccurred())
	// The API servers and the operator go through a recorder, which fails the suite when
	// one of them sent a request Elasticsearch would refuse; the specs' own reads do not.
	recorder, err := esspec.Record(backendURL, GinkgoWriter)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(recorder.Close)
	esURL = recorder.URL()
	if os.Getenv("AISLE_BENCH") != "" {
		// The benchmarks compare the API with requests sent straight to the engine, as
		// production sends them: the recorder's proxy and checks, one more HTTP hop on
		// each of a write's serial round trips, would be counted against the API only.
		esURL = backendURL
	}
	productES, err := es.New(esURL)
	Expect(err).NotTo(HaveOccurred())
	searchSvc = search.New(productES, search.WithClock(rulesNow))

	testEnv, err = envtestenv.New()
	Expect(err).NotTo(HaveOccurred())
	cfg, err := testEnv.Start()
	Expect(err).NotTo(HaveOccurred())
	k8sClient, err = client.New(cfg, client.Options{Scheme: testEnv.Scheme})
	Expect(err).NotTo(HaveOccurred())
	kubeconf = writeKubeconfig(cfg)
	startOperator(cfg)

	for i := 0; i < 2; i++ {
		s := newReplica(cfg)
		if i == 0 {
			server = s
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		Expect(err).NotTo(HaveOccurred())
		replicas = append(replicas, "http://"+ln.Addr().String())
		go func() { _ = s.Serve(ln) }()
		DeferCleanup(func() { _ = s.App().Shutdown() })
	}
	createFixtures()
})

// newReplica builds one API server with its own informers and catalog service.
func newReplica(cfg *rest.Config) *apiserver.Server {
	reg, err := tenancy.NewRegistry(ctx, cfg, testEnv.Scheme, clock.RealClock{})
	Expect(err).NotTo(HaveOccurred())
	go func() {
		defer GinkgoRecover()
		Expect(reg.Start(ctx)).To(Succeed())
	}()
	Expect(reg.WaitForSync(ctx)).To(BeTrue())
	if registry == nil {
		registry = reg
	}
	return buildServer(reg, apiserver.PublicLimits{})
}

// startOperator runs the SearchIndex reconciler only: the fixtures' API keys carry
// hand-written status that the APIKey reconciler would replace.
func startOperator(cfg *rest.Config) {
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme: testEnv.Scheme, Cache: controllers.CacheOptions(),
		Metrics: metricsserver.Options{BindAddress: "0"},
	})
	Expect(err).NotTo(HaveOccurred())
	opClient, err := es.New(esURL)
	Expect(err).NotTo(HaveOccurred())
	r := &controllers.SearchIndexReconciler{
		Client: mgr.GetClient(), Recorder: mgr.GetEventRecorder("aisle-operator"),
		Backend: &controllers.Backend{ES: opClient},
		Options: controllers.Options{ES: opClient, RecordsRefresh: time.Second, MaxBackoff: time.Second, SignalsRefresh: time.Second},
		Catalog: catalog.New(opClient, catalogConfig),
	}
	Expect(r.SetupWithManager(mgr)).To(Succeed())
	go func() {
		defer GinkgoRecover()
		Expect(mgr.Start(ctx)).To(Succeed())
	}()
}

var _ = AfterSuite(func() {
	if aisleBin != "" {
		_ = os.RemoveAll(filepath.Dir(aisleBin))
	}
	if cancel != nil {
		cancel()
	}
	if testEnv != nil {
		Expect(testEnv.Stop()).To(Succeed())
	}
})

// newServer builds another API server on the first replica's registry, with the given
// public rate limits.
func newServer(limits apiserver.PublicLimits) *apiserver.Server {
	return buildServer(registry, limits)
}

// buildServer builds an API server on reg and the suite's search backend, with its own
// catalog service, usage meter (flushed every 100 ms), search log (written every 50 ms,
// dated by the events clock) and rate limiters.
func buildServer(reg *tenancy.Registry, limits apiserver.PublicLimits) *apiserver.Server {
	client, err := es.New(esURL)
	Expect(err).NotTo(HaveOccurred())
	meter := usage.New(client, esnames.Usage(esnames.DefaultPrefix))
	go meter.Run(ctx, 100*time.Millisecond)
	searches := searchlog.New(client, searchlog.Config{Interval: 50 * time.Millisecond, Clock: eventsNow,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	go searches.Run(ctx)
	// Each replica embeds in the background as in production, with short pauses and
	// retries so the specs wait little; the embedders' servers are the specs' own.
	embed, err := embedding.New(client, embedding.Config{Interval: 100 * time.Millisecond, Records: 50,
		Tokens: apiserver.SecretTokens(k8sClient), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Client:       embedder.Config{CallTimeout: 300 * time.Millisecond, Backoff: 10 * time.Millisecond, MaxBackoff: 50 * time.Millisecond, Attempts: 6},
		QueryTimeout: 500 * time.Millisecond})
	Expect(err).NotTo(HaveOccurred())
	go embed.Run(ctx, reg.AllIndexes)
	s := apiserver.New(apiserver.Config{
		Embedding: embed,
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
		Catalog:   catalog.New(client, catalogConfig),
		Search:    searchSvc, Usage: meter, Writer: k8sClient, PublicLimits: limits,
		Insights:  events.NewReader(client, nil),
		Recommend: recommend.New(client, searchSvc, nil),
		Events:    events.New(client, events.Config{Clock: eventsNow}),
		SearchLog: searches, Searches: searchlog.NewReader(client),
		Marks: settingsfence.NewMarks(client, settingsfence.DefaultBound),
	}, reg)
	s.SetReady(true)
	return s
}
