package embedder_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/embedder"
	"github.com/aislehq/aisle/internal/embedder/embeddertest"
)

func TestEmbedder(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "embedder")
}

// fast keeps the retries' waits short: the specs test what is retried, not how long.
func fast(url string) embedder.Config {
	return embedder.Config{URL: url, Model: "m", Dimensions: 8, Batch: 3, CallTimeout: 200 * time.Millisecond,
		Attempts: 4, Backoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond}
}

var _ = Describe("The OpenAI embeddings client", func() {
	var srv *embeddertest.Server
	BeforeEach(func() {
		srv = embeddertest.New(8)
		DeferCleanup(srv.Close)
	})

	It("embeds texts in batches, in order, sending the token as a bearer", func() {
		cfg := fast(srv.URL)
		cfg.Token = "s3cret"
		texts := []string{"red shoe", "blue hat", "warm coat", "wool sock", "green boot", "a", "b"}
		vs, err := embedder.New(cfg, nil).Embed(context.Background(), texts)
		Expect(err).NotTo(HaveOccurred())
		Expect(vs).To(HaveLen(len(texts)))
		for i, t := range texts {
			Expect(vs[i]).To(Equal(embeddertest.Vector(t, 8)), t)
			Expect(srv.Count(t)).To(Equal(1), t)
		}
		Expect(srv.Authorizations()).To(Equal([]string{"Bearer s3cret", "Bearer s3cret", "Bearer s3cret"}))
	})

	DescribeTable("retries what a retry can change, and embeds each text once",
		func(faults ...embeddertest.Fault) {
			srv.FailNext(faults...)
			vs, err := embedder.New(fast(srv.URL), nil).Embed(context.Background(), []string{"red shoe"})
			Expect(err).NotTo(HaveOccurred())
			Expect(vs[0]).To(Equal(embeddertest.Vector("red shoe", 8)))
			Expect(srv.Count("red shoe")).To(Equal(1))
			Expect(srv.Authorizations()).To(HaveLen(len(faults) + 1))
		},
		Entry("a 429 after its Retry-After", embeddertest.Fault{Status: http.StatusTooManyRequests, RetryAfter: "0"}),
		Entry("5xx", embeddertest.Fault{Status: 500}, embeddertest.Fault{Status: 503}),
		Entry("a call that outlives its timeout", embeddertest.Fault{Stall: time.Second}),
	)

	It("gives up after its attempts, saying the embedder is unavailable", func() {
		srv.FailNext(embeddertest.Fault{Status: 502}, embeddertest.Fault{Status: 502}, embeddertest.Fault{Status: 502}, embeddertest.Fault{Status: 502})
		_, err := embedder.New(fast(srv.URL), nil).Embed(context.Background(), []string{"x"})
		Expect(err).To(MatchError(embedder.ErrUnavailable))
		Expect(err).To(MatchError(ContainSubstring("answered 502")))
	})

	It("does not retry a refusal", func() {
		srv.FailNext(embeddertest.Fault{Status: http.StatusUnauthorized})
		_, err := embedder.New(fast(srv.URL), nil).Embed(context.Background(), []string{"x"})
		Expect(err).To(MatchError(embedder.ErrRefused))
		Expect(srv.Authorizations()).To(HaveLen(1))
	})

	It("refuses vectors of other dimensions than the embedder's", func() {
		cfg := fast(srv.URL)
		cfg.Dimensions = 16
		_, err := embedder.New(cfg, nil).Embed(context.Background(), []string{"x"})
		Expect(err).To(MatchError(embedder.ErrRefused))
		Expect(err).To(MatchError(ContainSubstring("a vector of 8 numbers, the embedder's dimensions are 16")))
	})

	DescribeTable("sends the dimensions only when the embedder says so",
		func(send bool, dims int, want []int) {
			cfg := fast(srv.URL)
			cfg.Dimensions, cfg.SendDimensions = dims, send
			vs, err := embedder.New(cfg, nil).Embed(context.Background(), []string{"red shoe", "blue hat"})
			Expect(err).NotTo(HaveOccurred())
			Expect(vs).To(HaveLen(2))
			Expect(vs[0]).To(Equal(embeddertest.Vector("red shoe", dims)))
			Expect(srv.SentDimensions()).To(Equal(want))
		},
		Entry("not by default: the server answers its own length", false, 8, []int{0}),
		Entry("when asked: the server shortens its vectors to them", true, 4, []int{4}),
	)

	It("refuses the server's own length when it ignores the dimensions it was sent", func() {
		cfg := fast(srv.URL)
		cfg.Dimensions, cfg.SendDimensions = 16, true
		_, err := embedder.New(cfg, nil).Embed(context.Background(), []string{"x"})
		Expect(err).To(MatchError(embedder.ErrRefused))
		Expect(srv.SentDimensions()).To(Equal([]int{16}))
	})

	It("caches a query's vector: a query asked again makes no call", func() {
		cache, err := embedder.NewQueryCache(2)
		Expect(err).NotTo(HaveOccurred())
		c := embedder.New(fast(srv.URL), nil)
		for range 3 {
			v, err := cache.Vector(context.Background(), c, "warm hat")
			Expect(err).NotTo(HaveOccurred())
			Expect(v).To(Equal(embeddertest.Vector("warm hat", 8)))
		}
		Expect(srv.Count("warm hat")).To(Equal(1))
		for _, q := range []string{"a", "b", "warm hat"} {
			_, err := cache.Vector(context.Background(), c, q)
			Expect(err).NotTo(HaveOccurred())
		}
		Expect(srv.Count("warm hat")).To(Equal(2), "the bound evicted the oldest query")
	})
})

var _ = Describe("The query vector cache", func() {
	It("drops the vectors of sources no embedder uses any more, and keeps the others", func() {
		srv := embeddertest.New(8)
		DeferCleanup(srv.Close)
		cache, err := embedder.NewQueryCache(100)
		Expect(err).NotTo(HaveOccurred())
		kept, gone := fast(srv.URL), fast(srv.URL)
		gone.Model = "retired"
		keptClient, goneClient := embedder.New(kept, nil), embedder.New(gone, nil)
		for _, c := range []*embedder.Client{keptClient, goneClient} {
			_, err := cache.Vector(context.Background(), c, "warm hat")
			Expect(err).NotTo(HaveOccurred())
		}
		Expect(cache.Len()).To(Equal(2))
		Expect(srv.Count("warm hat")).To(Equal(2))

		Expect(cache.Retain(func(s embedder.Source) bool { return s == keptClient.Source() })).To(Equal(1))
		Expect(cache.Len()).To(Equal(1))
		for _, c := range []*embedder.Client{keptClient, goneClient} {
			_, err := cache.Vector(context.Background(), c, "warm hat")
			Expect(err).NotTo(HaveOccurred())
		}
		Expect(srv.Count("warm hat")).To(Equal(3), "only the dropped source's query was embedded again")
	})
})

var _ = DescribeTable("The wait before a retry",
	func(attempt int, retryAfter string, jitter float64, want time.Duration) {
		Expect(embedder.Delay(attempt, 100*time.Millisecond, 2*time.Second, retryAfter, jitter)).To(Equal(want))
	},
	Entry("the first, no jitter", 0, "", 0.0, 50*time.Millisecond),
	Entry("the first, half jitter", 0, "", 0.5, 75*time.Millisecond),
	Entry("doubles at each retry", 3, "", 0.0, 400*time.Millisecond),
	Entry("bounded", 10, "", 0.0, time.Second),
	Entry("a server's Retry-After", 0, "1", 0.5, time.Second),
	Entry("a Retry-After beyond the bound", 0, "60", 0.5, 2*time.Second),
	Entry("a Retry-After that is a date: backoff", 1, "Wed, 21 Oct 2015 07:28:00 GMT", 0.0, 100*time.Millisecond),
)

var _ = DescribeTable("What is retried",
	func(status int, want bool) { Expect(embedder.Retryable(status)).To(Equal(want)) },
	Entry("429", 429, true), Entry("500", 500, true), Entry("503", 503, true),
	Entry("400", 400, false), Entry("401", 401, false), Entry("404", 404, false),
)
