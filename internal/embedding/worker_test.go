package embedding_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/catalog/catalogtest"
	"github.com/aislehq/aisle/internal/embedder"
	"github.com/aislehq/aisle/internal/embedder/embeddertest"
	"github.com/aislehq/aisle/internal/embedding"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/test/esbackend"
)

// workerRecords is how many records each spec's index holds; a pass embeds a tenth.
const workerRecords = 60

var workerIndexes int

// workerIndex is a SearchIndex whose openAI embedder "bge" is srv, created in the engine
// as the operator creates it, with workerRecords records written through the catalog;
// it returns the records' texts by objectID.
func workerIndex(client *elasticsearch.TypedClient, srv *embeddertest.Server) (searchv1alpha1.SearchIndex, map[string]string) {
	workerIndexes++
	idx := searchv1alpha1.SearchIndex{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: fmt.Sprintf("worker-%d", workerIndexes)}}
	idx.Spec.Settings = searchv1alpha1.IndexSettings{
		SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 1}},
		Embedders: map[string]searchv1alpha1.Embedder{"bge": {Source: searchv1alpha1.EmbedderOpenAI, Dimensions: 8,
			URL: srv.URL, Model: "bow-8", DocumentTemplate: "{{name}}"}},
	}
	Expect(catalogtest.Create(context.Background(), client, esnames.For(idx.Namespace, idx.Name), idx.Spec.Settings)).To(Succeed())
	texts := map[string]string{}
	for i := range workerRecords {
		texts[fmt.Sprintf("r%d", i)] = fmt.Sprintf("thing number %d of the worker", i)
	}
	writeNames(client, idx, texts)
	return idx, texts
}

// writeNames writes, through the catalog, the records of idx named names by objectID.
func writeNames(client *elasticsearch.TypedClient, idx searchv1alpha1.SearchIndex, names map[string]string) {
	var raws []json.RawMessage
	for id, name := range names {
		raws = append(raws, json.RawMessage(fmt.Sprintf(`{"objectID": %q, "name": %q}`, id, name)))
	}
	recs, err := catalog.ValidateRecords(raws, 1, catalog.MaxPostRecords)
	Expect(err).NotTo(HaveOccurred())
	t := catalog.Target{Names: esnames.For(idx.Namespace, idx.Name), Settings: idx.Spec.Settings}
	_, err = catalog.New(client, catalog.Config{}).Upsert(context.Background(), t, recs)
	Expect(err).NotTo(HaveOccurred())
}

// replica is one API server replica's embedding service, named holder, on client.
func replica(client *elasticsearch.TypedClient, holder string, lease time.Duration) *embedding.Service {
	return replicaWith(client, embedding.Config{Holder: holder, Lease: lease})
}

// replicaWith is a replica of cfg, with short pauses, and short retries unless cfg sets
// its own.
func replicaWith(client *elasticsearch.TypedClient, cfg embedding.Config) *embedding.Service {
	cfg.Records, cfg.Interval, cfg.Logger = workerRecords/6, 20*time.Millisecond, slog.New(slog.NewTextHandler(io.Discard, nil))
	if cfg.Client == (embedder.Config{}) {
		cfg.Client = embedder.Config{CallTimeout: time.Second, Attempts: 3, Backoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond}
	}
	s, err := embedding.New(client, cfg)
	Expect(err).NotTo(HaveOccurred())
	return s
}

// start runs s over idx until the returned stop, which waits until Run returned.
func start(s *embedding.Service, idx searchv1alpha1.SearchIndex) (stop func()) {
	return startOn(s, func(context.Context) ([]searchv1alpha1.SearchIndex, error) {
		return []searchv1alpha1.SearchIndex{idx}, nil
	})
}

// startOn runs s over the indexes list gives until the returned stop.
func startOn(s *embedding.Service, list embedding.IndexLister) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Run(ctx, list)
	}()
	return func() { cancel(); <-done }
}

// embedded are the objectIDs of idx's records holding their vector.
func embedded(client *elasticsearch.TypedClient, idx searchv1alpha1.SearchIndex) map[string]bool {
	res, err := client.Search().Index(esnames.For(idx.Namespace, idx.Name).Alias()).Size(workerRecords).
		Query(&types.Query{Exists: &types.ExistsQuery{Field: "_vectors.bge"}}).Do(context.Background())
	Expect(err).NotTo(HaveOccurred())
	out := map[string]bool{}
	for _, h := range res.Hits.Hits {
		out[*h.Id_] = true
	}
	return out
}

// onceEach: every text was embedded exactly once.
func onceEach(srv *embeddertest.Server, texts map[string]string) {
	got := srv.Texts()
	Expect(got).To(HaveLen(len(texts)))
	for id, t := range texts {
		Expect(got[t]).To(Equal(1), id)
	}
}

var _ = Describe("The embedding worker of the API server replicas", func() {
	var (
		client *elasticsearch.TypedClient
		srv    *embeddertest.Server
	)
	BeforeEach(func() {
		var err error
		client, err = es.New(engineURL)
		Expect(err).NotTo(HaveOccurred())
		srv = embeddertest.New(8)
		DeferCleanup(srv.Close)
	})

	It("embeds nothing in an index built from other settings (its rebuild gets the vectors), and embeds once it was built from them", func() {
		idx, _ := workerIndex(client, srv)
		s := replica(client, "one", time.Hour)
		changed := idx
		changed.Spec.Settings.SearchableFields = append(changed.Spec.Settings.SearchableFields, searchv1alpha1.SearchableField{Path: "brand", Weight: 1})
		n := embedding.Computed(changed.Spec.Settings)[0]
		looked, err := s.Pass(context.Background(), &changed, n)
		Expect(err).NotTo(HaveOccurred())
		Expect(looked).To(BeZero(), "the index's mapping holds the hash of other settings")
		Expect(srv.Texts()).To(BeEmpty())
		looked, err = s.Pass(context.Background(), &idx, embedding.Computed(idx.Spec.Settings)[0])
		Expect(err).NotTo(HaveOccurred())
		Expect(looked).To(Equal(workerRecords/6), "built from its settings, the index's records wait for their vectors")
	})

	It("resumes after a stop mid-way at once, losing no record and embedding none twice", func() {
		idx, texts := workerIndex(client, srv)
		gate, err := esbackend.NewGate(engineURL)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(gate.Close)
		gated, err := es.New(gate.URL())
		Expect(err).NotTo(HaveOccurred())
		// The third pass's vectors are computed and kept; the replica stops while their
		// write to the records is held, so it never lands.
		held := gate.HoldAfter(2, func(r *http.Request) bool {
			return r.Method == http.MethodPost && r.URL.Query().Get("refresh") == "wait_for"
		})
		stop := start(replica(gated, "first", time.Hour), idx)
		Eventually(held, 30*time.Second).Should(BeClosed())
		stop()
		gate.Release()
		Expect(embedded(client, idx)).To(HaveLen(2*workerRecords/6), "two passes were written")
		Expect(srv.Texts()).To(HaveLen(3*workerRecords/6), "the third pass's texts were embedded")

		By("restarting: a replica of another name takes over at once, the first having released its hour-long lease")
		stop = start(replica(client, "restarted", time.Hour), idx)
		DeferCleanup(stop)
		Eventually(func() map[string]bool { return embedded(client, idx) }, 30*time.Second).Should(HaveLen(workerRecords))
		onceEach(srv, texts)
	})

	It("keeps its lease through a pass that outlasts it, so that no other replica embeds the same records", func() {
		idx, texts := workerIndex(client, srv)
		n := embedding.Computed(idx.Spec.Settings)[0]
		// Each call takes three leases' time: without renewals the first replica's lease
		// lapses while its pass waits for the vectors.
		const lease = 600 * time.Millisecond
		srv.Slow(3 * lease)
		slowCalls := embedder.Config{CallTimeout: time.Minute, Attempts: 1}
		first := replicaWith(client, embedding.Config{Holder: "first", Lease: lease, Client: slowCalls})
		second := replicaWith(client, embedding.Config{Holder: "second", Lease: lease, Client: slowCalls})
		passed := make(chan int)
		go func() {
			defer GinkgoRecover()
			done, err := first.Pass(context.Background(), &idx, n)
			Expect(err).NotTo(HaveOccurred())
			passed <- done
		}()
		Eventually(func() int { return len(srv.Authorizations()) }, 10*time.Second).Should(Equal(1), "the first pass calls the embedder")
		time.Sleep(2 * lease) // past the deadline the first pass took its lease with
		done, err := second.Pass(context.Background(), &idx, n)
		Expect(err).NotTo(HaveOccurred())
		Expect(done).To(BeZero(), "the first replica renewed its lease while its pass ran")
		Expect(<-passed).To(Equal(workerRecords / 6))

		srv.Slow(0)
		stop := start(second, idx)
		DeferCleanup(stop)
		Eventually(func() map[string]bool { return embedded(client, idx) }, 30*time.Second).Should(HaveLen(workerRecords))
		onceEach(srv, texts)
	})

	It("is taken over by a second replica once the first stops renewing its lease", func() {
		idx, texts := workerIndex(client, srv)
		n := embedding.Computed(idx.Spec.Settings)[0]
		first := replica(client, "first", 3*time.Second)
		done, err := first.Pass(context.Background(), &idx, n)
		Expect(err).NotTo(HaveOccurred())
		Expect(done).To(Equal(workerRecords / 6))
		// The first replica now hangs: it neither renews nor releases its lease.

		second := replica(client, "second", time.Minute)
		done, err = second.Pass(context.Background(), &idx, n)
		Expect(err).NotTo(HaveOccurred())
		Expect(done).To(BeZero(), "the first replica's lease is live")
		Expect(srv.Texts()).To(HaveLen(workerRecords / 6))

		stop := start(second, idx)
		DeferCleanup(stop)
		Eventually(func() map[string]bool { return embedded(client, idx) }, 30*time.Second).Should(HaveLen(workerRecords))
		onceEach(srv, texts)
	})
})
