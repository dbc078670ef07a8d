package engine_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	_ "net/http/pprof" // the child's profiles, with profileEnv
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/engine"
)

// childEnv makes the test binary act as a bare engine process, with the GC settings of
// `aisle engine`: the durability test starts it as a subprocess and kills it with SIGKILL,
// the benchmarks measure it; SIGTERM closes it as it closes `aisle engine`.
const childEnv = "AISLE_ENGINE_TEST_CHILD_DATA"

// containerEnv, in such a child, gives it the memory settings `aisle engine` takes in a
// container limited to that many bytes.
const containerEnv = "AISLE_ENGINE_TEST_CONTAINER_BYTES"

// profileEnv, in such a child, serves net/http/pprof on that address, so a benchmark can
// take the engine's CPU and heap profiles of one phase (see profilePhase).
const profileEnv = "AISLE_ENGINE_TEST_PPROF"

func init() {
	dir := os.Getenv(childEnv)
	if dir == "" {
		return
	}
	budget, err := tuneChild()
	if err != nil {
		fmt.Fprintln(os.Stderr, "child engine:", err)
		os.Exit(3)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	if budget > 0 {
		go engine.HoldResident(ctx, budget)
	}
	if addr := os.Getenv(profileEnv); addr != "" {
		go func() { fmt.Fprintln(os.Stderr, "child engine: pprof:", http.ListenAndServe(addr, nil)) }()
	}
	srv, err := engine.Start(ctx, engine.Config{DataDir: dir})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child engine:", err)
		os.Exit(3)
	}
	fmt.Println("URL " + srv.URL())
	<-ctx.Done()
	if err := srv.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "child engine:", err)
		os.Exit(3)
	}
	os.Exit(0)
}

// tuneChild sets the child's collector as `aisle engine` does, or as in a container (see
// containerEnv); it returns the resident budget, 0 for none.
func tuneChild() (int64, error) {
	if bytes := os.Getenv(containerEnv); bytes != "" {
		total, err := strconv.ParseUint(bytes, 10, 64)
		if err != nil {
			return 0, err
		}
		_, budget, err := engine.TuneGCInContainer(total)
		return budget, err
	}
	if _, err := engine.TuneGC(); err != nil {
		return 0, err
	}
	budget, _ := engine.ResidentBudget()
	return budget, nil
}

func TestEngine(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Engine Suite")
}

var (
	srv *engine.Server
	es  *elasticsearch.TypedClient
	ctx = context.Background()
)

var _ = BeforeSuite(func() {
	var err error
	srv, err = engine.Start(ctx, engine.Config{DataDir: GinkgoT().TempDir()})
	Expect(err).NotTo(HaveOccurred())
	es = newClient(srv.URL())
})

var _ = AfterSuite(func() {
	if srv != nil {
		Expect(srv.Close()).To(Succeed())
	}
})

func newClient(url string) *elasticsearch.TypedClient {
	c, err := elasticsearch.NewTypedClient(elasticsearch.Config{Addresses: []string{url}, MaxRetries: 0, DisableRetry: true})
	Expect(err).NotTo(HaveOccurred())
	return c
}

// esError extracts the ES error of a typed client call.
func esError(err error) *types.ElasticsearchError {
	var e *types.ElasticsearchError
	if errors.As(err, &e) {
		return e
	}
	Fail(fmt.Sprintf("expected an Elasticsearch error, got %v", err))
	return nil
}

// rawDo sends a raw request and returns status and body (for malformed input the typed
// client cannot express).
func rawDo(method, path, contentType, body string) (int, string, http.Header) {
	req, err := http.NewRequest(method, srv.URL()+path, strings.NewReader(body))
	Expect(err).NotTo(HaveOccurred())
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer res.Body.Close()
	var b strings.Builder
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		b.WriteString(sc.Text())
	}
	return res.StatusCode, b.String(), res.Header
}

var nameSeq int

// uniqueIndex returns a fresh index name so specs never share state.
func uniqueIndex(prefix string) string {
	nameSeq++
	return fmt.Sprintf("%s-%d", prefix, nameSeq)
}

func jsonReader(s string) *strings.Reader { return strings.NewReader(s) }
