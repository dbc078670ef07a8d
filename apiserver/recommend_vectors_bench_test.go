package apiserver_test

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/test/benchdata"
)

// The similar list by vectors beside the similar list by words (docs/benchmarks.md,
// "Recommendation lists"): the planted shop of test/benchdata loaded twice through the
// API, once as today (more_like_this) and once with a userProvided embedder whose
// vectors are the products' words hashed into recsVectorDims dimensions, weighted by
// their inverse document frequency. The shop's made-up words have no pretrained model,
// and ESCI's vectors belong to another catalog: the hashed words are the embedding the
// shop's text itself gives, so the two lists see the same information and differ by how
// they search it. The same sampled products ask both. AISLE_BENCH=1 runs it.

const recsVectorDims = 256

// hashedWordVectors embeds each product's name and description as its words' inverse
// document frequencies summed in recsVectorDims buckets (FNV-1a of the word), then
// normalized: products sharing rare words point the same way.
func hashedWordVectors(products []json.RawMessage) [][]float64 {
	docs := make([][]string, len(products))
	df := map[string]int{}
	for i, raw := range products {
		var p struct{ Name, Description string }
		Expect(json.Unmarshal(raw, &p)).To(Succeed())
		docs[i] = strings.Fields(strings.ToLower(p.Name + " " + p.Description))
		seen := map[string]bool{}
		for _, w := range docs[i] {
			if !seen[w] {
				seen[w], df[w] = true, df[w]+1
			}
		}
	}
	out := make([][]float64, len(docs))
	for i, words := range docs {
		v := make([]float64, recsVectorDims)
		for _, w := range words {
			h := fnv.New32a()
			_, _ = h.Write([]byte(w))
			v[h.Sum32()%recsVectorDims] += math.Log(float64(len(docs)) / float64(df[w]))
		}
		var norm float64
		for _, x := range v {
			norm += x * x
		}
		for j := range v {
			v[j] /= math.Sqrt(norm)
		}
		out[i] = v
	}
	return out
}

// withVectors adds each product's vector under the embedder name.
func withVectors(products []json.RawMessage, vectors [][]float64, name string) []map[string]any {
	out := make([]map[string]any, len(products))
	for i, raw := range products {
		Expect(json.Unmarshal(raw, &out[i])).To(Succeed())
		out[i]["_vectors"] = map[string]any{name: vectors[i]}
	}
	return out
}

// similarShare asks the similar list of n products drawn with a fixed seed and returns
// the mean share of each list's first recsListSize in the product's planted group.
func similarShare(c recsClient, shop benchdata.Shop, n int) (float64, []time.Duration) {
	rng := rand.New(rand.NewPCG(5, 5))
	var share float64
	var times []time.Duration
	for i := 0; i < n; i++ {
		var p struct {
			ObjectID string `json:"objectID"`
		}
		Expect(json.Unmarshal(shop.Products[rng.IntN(len(shop.Products))], &p)).To(Succeed())
		ids, took := c.list("/lists/similar/" + p.ObjectID + "?limit=10")
		times = append(times, took)
		same := 0
		for _, id := range ids {
			if shop.Group[strings.TrimSuffix(id, "|content")] == shop.Group[p.ObjectID] {
				same++
			}
		}
		share += float64(same) / recsListSize
	}
	return share / float64(n), times
}

var _ = Describe("Benchmark of the similar list by vectors", Ordered, func() {
	var shop benchdata.Shop
	var words, vectors recsClient

	// load creates an index of the shop's products and loads records into it.
	load := func(name string, settings searchv1alpha1.IndexSettings, records any) recsClient {
		createIndexWith("shop", name, settings, nil, nil)
		issueFor(name, "shop", []searchv1alpha1.Scope{"search", "write"}, []string{name}, nil, nil)
		c := recsClient{http: &http.Client{}, base: "/api/teams/shop/indexes/" + name, key: keys[name]}
		Eventually(func() int { return call(0, http.MethodGet, c.base+"/config", c.key, nil).status }).Should(Equal(http.StatusOK))
		body, err := json.Marshal(map[string]any{"records": records})
		Expect(err).NotTo(HaveOccurred())
		loaded := measure(func() {
			r := call(0, http.MethodPut, c.base+"/records", c.key, body)
			Expect(r.status).To(Equal(http.StatusAccepted), string(r.body))
		})
		// A replacement answers once the new catalog is live; wait until a list reads it.
		Eventually(func() int {
			return call(0, http.MethodGet, c.base+"/lists/similar/"+benchdata.ShopProductID(0, 0, 0), c.key, nil).status
		}).Should(Equal(http.StatusOK))
		fmt.Fprintf(GinkgoWriter, "%s: %d products in %s\n", name, len(shop.Products), loaded.wall.Round(time.Millisecond))
		return c
	}

	BeforeAll(func() {
		if os.Getenv("AISLE_BENCH") == "" {
			Skip("set AISLE_BENCH=1 to run the recommendation benchmark")
		}
		shop = benchdata.NewShop(0)
		words = load("recs-words-bench", recsSettings, shop.Products)
		embedded := *recsSettings.DeepCopy()
		embedded.Embedders = map[string]searchv1alpha1.Embedder{
			"words": {Source: searchv1alpha1.EmbedderUserProvided, Dimensions: recsVectorDims}}
		vectors = load("recs-vectors-bench", embedded, withVectors(shop.Products, hashedWordVectors(shop.Products), "words"))
	})

	It("lists a product's planted group as similar by its vector as by its words", func() {
		byWords, wordTimes := similarShare(words, shop, recsSimilar)
		byVector, vectorTimes := similarShare(vectors, shop, recsSimilar)
		fmt.Fprintf(GinkgoWriter, "similar, share of the first 10 in the planted group (%d products): by words (more_like_this) %.3f, %s; by vector (kNN, hashed words) %.3f, %s\n",
			recsSimilar, byWords, latencies(wordTimes), byVector, latencies(vectorTimes))
		Expect(byVector).To(BeNumerically(">", 0), "the kNN list finds the planted group at all")
	})
})
