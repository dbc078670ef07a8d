package embedding_test

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/embedder/embeddertest"
	"github.com/aislehq/aisle/internal/embedding"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
)

// keptKeys are the keys of the vectors kept in idx's embeddings index; nil when there
// is no such index. Its assertions are g's, so that an index dropped between its calls
// (the embedder removed) fails one poll rather than the spec.
func keptKeys(g Gomega, client *elasticsearch.TypedClient, idx searchv1alpha1.SearchIndex) []string {
	index := esnames.For(idx.Namespace, idx.Name).Embeddings()
	if ok, err := client.Indices.Exists(index).Do(context.Background()); err != nil || !ok {
		g.Expect(err).NotTo(HaveOccurred())
		return nil
	}
	_, err := client.Indices.Refresh().Index(index).Do(context.Background())
	g.Expect(err).NotTo(HaveOccurred())
	res, err := client.Search().Index(index).Size(1000).Do(context.Background())
	g.Expect(err).NotTo(HaveOccurred())
	out := []string{}
	for _, h := range res.Hits.Hits {
		out = append(out, *h.Id_)
	}
	return out
}

// keysOf are the keys of texts' vectors made by e.
func keysOf(e searchv1alpha1.Embedder, texts map[string]string) []string {
	out := make([]string, 0, len(texts))
	for _, t := range texts {
		out = append(out, embedding.TextKey(embedding.VectorSource(e), t))
	}
	return out
}

var _ = Describe("The vectors an index keeps for reuse", func() {
	It("are pruned to those some record holds: not texts rewritten, a former server's, or a removed embedder's", func() {
		client, err := es.New(engineURL)
		Expect(err).NotTo(HaveOccurred())
		srv, other := embeddertest.New(8), embeddertest.New(8)
		DeferCleanup(srv.Close)
		DeferCleanup(other.Close)
		idx, texts := workerIndex(client, srv)
		var mu sync.Mutex
		current := idx
		set := func(change func(*searchv1alpha1.IndexSettings)) {
			mu.Lock()
			defer mu.Unlock()
			current = *current.DeepCopy()
			change(&current.Spec.Settings)
		}
		stop := startOn(replicaWith(client, embedding.Config{Holder: "pruner", PruneInterval: 100 * time.Millisecond}),
			func(context.Context) ([]searchv1alpha1.SearchIndex, error) {
				mu.Lock()
				defer mu.Unlock()
				return []searchv1alpha1.SearchIndex{current}, nil
			})
		DeferCleanup(stop)
		Eventually(func() map[string]bool { return embedded(client, idx) }, 30*time.Second).Should(HaveLen(workerRecords))
		Eventually(func(g Gomega) []string { return keptKeys(g, client, idx) }, 10*time.Second).Should(ConsistOf(keysOf(idx.Spec.Settings.Embedders["bge"], texts)))

		By("rewriting a third of the records with other texts")
		rewritten := map[string]string{}
		for i := range workerRecords / 3 {
			id := fmt.Sprintf("r%d", i)
			rewritten[id] = texts[id] + " renamed"
			texts[id] = rewritten[id]
		}
		writeNames(client, idx, rewritten)
		Eventually(func() int { return len(srv.Texts()) }, 30*time.Second).Should(Equal(workerRecords + workerRecords/3))
		Eventually(func(g Gomega) []string { return keptKeys(g, client, idx) }, 10*time.Second).Should(ConsistOf(keysOf(idx.Spec.Settings.Embedders["bge"], texts)))

		By("moving the embedder to another server")
		moved := idx.Spec.Settings.Embedders["bge"]
		moved.URL = other.URL
		set(func(s *searchv1alpha1.IndexSettings) { s.Embedders = map[string]searchv1alpha1.Embedder{"bge": moved} })
		Eventually(func() int { return len(other.Texts()) }, 30*time.Second).Should(Equal(workerRecords))
		Eventually(func(g Gomega) []string { return keptKeys(g, client, idx) }, 10*time.Second).Should(ConsistOf(keysOf(moved, texts)))

		By("removing the embedder")
		set(func(s *searchv1alpha1.IndexSettings) { s.Embedders = nil })
		Eventually(func(g Gomega) []string { return keptKeys(g, client, idx) }, 10*time.Second).Should(BeNil())
	})
})
