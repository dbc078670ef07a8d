package history_test

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/history"
)

var indexCounter atomic.Int64

func newNames() esnames.Index {
	return esnames.For("ws", fmt.Sprintf("hist-%d", indexCounter.Add(1)))
}

type state struct {
	Words []string `json:"words"`
}

func numbers(vs []history.Version) []int64 {
	out := []int64{}
	for _, v := range vs {
		out = append(out, v.Version)
	}
	return out
}

var _ = Describe("A history of versions", func() {
	at := time.Date(2030, 5, 1, 12, 0, 0, 0, time.UTC)
	log := func() *history.Log { return history.New(esClient, history.KindConfig, func() time.Time { return at }) }

	It("is empty before the first change, then starts with the state before it as version 1", func() {
		l, names := log(), newNames()
		Expect(l.Empty(ctx, names)).To(BeTrue())
		Expect(l.List(ctx, names)).To(BeEmpty())
		n, err := l.Record(ctx, names, history.Change{By: "ops-key", Summary: "changed synonyms",
			State: state{Words: []string{"b"}}, Before: state{Words: []string{"a"}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(BeNumerically("==", 2))
		Expect(l.Empty(ctx, names)).To(BeFalse())
		Expect(l.List(ctx, names)).To(Equal([]history.Version{
			{Version: 2, ChangedAt: at, ChangedBy: "ops-key", Summary: "changed synonyms"},
			{Version: 1, ChangedAt: at, Summary: "as it was before the first change through the API"},
		}))
		for v, words := range map[int64][]string{1: {"a"}, 2: {"b"}} {
			var s state
			got, err := l.State(ctx, names, v, &s)
			Expect(err).NotTo(HaveOccurred())
			Expect(got.Version).To(Equal(v))
			Expect(s.Words).To(Equal(words))
		}
	})

	It("keeps the last 50 versions, and says which it holds when asked for another", func() {
		l, names := log(), newNames()
		for i := range 55 {
			_, err := l.Record(ctx, names, history.Change{By: "k", Summary: fmt.Sprint(i), State: state{Words: []string{fmt.Sprint(i)}}})
			Expect(err).NotTo(HaveOccurred())
		}
		vs, err := l.List(ctx, names)
		Expect(err).NotTo(HaveOccurred())
		Expect(vs).To(HaveLen(history.MaxVersions))
		Expect(vs[0].Version).To(BeNumerically("==", 55))
		Expect(vs[49].Version).To(BeNumerically("==", 6))
		var s state
		_, err = l.State(ctx, names, 5, &s)
		Expect(err).To(MatchError(history.ErrVersionNotFound))
		Expect(err.Error()).To(Equal("version not found: the config history holds versions 6 to 55"))
		Expect(l.State(ctx, names, 6, &s)).Error().NotTo(HaveOccurred())
		Expect(s.Words).To(Equal([]string{"5"}))
	})

	It("keeps a state of megabytes whole, across documents", func() {
		l, names := log(), newNames()
		// Random words do not compress: the gzipped state takes several payload documents.
		big := state{}
		for range 30_000 {
			b := make([]byte, 64)
			_, _ = rand.Read(b)
			big.Words = append(big.Words, hex.EncodeToString(b))
		}
		n, err := l.Record(ctx, names, history.Change{By: "k", State: big})
		Expect(err).NotTo(HaveOccurred())
		var got state
		Expect(l.State(ctx, names, n, &got)).Error().NotTo(HaveOccurred())
		Expect(got.Words).To(Equal(big.Words))
	})

	It("numbers versions written at once by many writers one by one, losing none", func() {
		names := newNames()
		var wg sync.WaitGroup
		got := make([]int64, 8)
		for i := range got {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				n, err := log().Record(ctx, names, history.Change{By: fmt.Sprint(i), State: state{}})
				Expect(err).NotTo(HaveOccurred())
				got[i] = n
			}()
		}
		wg.Wait()
		slices.Sort(got)
		Expect(got).To(Equal([]int64{1, 2, 3, 4, 5, 6, 7, 8}))
		vs, err := log().List(ctx, names)
		Expect(err).NotTo(HaveOccurred())
		Expect(numbers(vs)).To(Equal([]int64{8, 7, 6, 5, 4, 3, 2, 1}))
	})

	It("keeps the histories of kinds and indexes apart", func() {
		names, other := newNames(), newNames()
		_, err := log().Record(ctx, names, history.Change{By: "k", State: state{}})
		Expect(err).NotTo(HaveOccurred())
		Expect(history.New(esClient, history.KindRules, nil).List(ctx, names)).To(BeEmpty())
		Expect(log().List(ctx, other)).To(BeEmpty())
	})
})
