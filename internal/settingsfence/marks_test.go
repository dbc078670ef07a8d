package settingsfence_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/settingsfence"
	"github.com/aislehq/aisle/test/esspec"
)

// The marks' specs run against the search backend of the tests (the embedded engine
// unless AISLE_ES_URL names a cluster), through a recorder that fails the suite when a
// request is outside Elasticsearch's specification. Two Marks on one backend are two
// replicas.
var (
	esClient *elasticsearch.TypedClient
	ctx      context.Context
)

func TestSettingsFence(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Settings fence")
}

var _ = BeforeSuite(func() { ctx, esClient = esspec.SuiteBackend() })

var indexCounter atomic.Int64

func newNames() esnames.Index {
	return esnames.For("ws", fmt.Sprintf("idx-%d", indexCounter.Add(1)))
}

const bound = 100 * time.Millisecond

var _ = Describe("Settings marks", func() {
	It("are none for an index no replica wrote, without creating its control index", func() {
		names := newNames()
		Expect(settingsfence.NewMarks(esClient, bound).Current(ctx, names)).To(Equal(settingsfence.Mark{}))
		_, err := esClient.Indices.Get(names.Control()).Do(ctx)
		Expect(es.Classify(err)).To(MatchError(es.ErrNotFound))
	})

	It("show another replica a raised mark once the bound has passed since the raise", func() {
		names := newNames()
		writer, reader := settingsfence.NewMarks(esClient, bound), settingsfence.NewMarks(esClient, bound)
		Expect(reader.Current(ctx, names)).To(Equal(settingsfence.Mark{}))
		mark := settingsfence.Mark{UID: "u1", Generation: 3}
		Expect(writer.Raise(ctx, names, mark)).To(Succeed())
		time.Sleep(bound)
		Expect(reader.Current(ctx, names)).To(Equal(mark))
	})

	It("never lower a mark: a slower replica's earlier generation leaves the later one", func() {
		names := newNames()
		a, b := settingsfence.NewMarks(esClient, bound), settingsfence.NewMarks(esClient, bound)
		Expect(a.Raise(ctx, names, settingsfence.Mark{UID: "u1", Generation: 5})).To(Succeed())
		Expect(b.Raise(ctx, names, settingsfence.Mark{UID: "u1", Generation: 4})).To(Succeed())
		Expect(b.Current(ctx, names)).To(Equal(settingsfence.Mark{UID: "u1", Generation: 5}))
		Expect(settingsfence.NewMarks(esClient, bound).Current(ctx, names)).To(Equal(settingsfence.Mark{UID: "u1", Generation: 5}))
	})

	It("start over for an index created again under the same name", func() {
		names := newNames()
		m := settingsfence.NewMarks(esClient, bound)
		Expect(m.Raise(ctx, names, settingsfence.Mark{UID: "u1", Generation: 9})).To(Succeed())
		Expect(m.Raise(ctx, names, settingsfence.Mark{UID: "u2", Generation: 2})).To(Succeed())
		Expect(settingsfence.NewMarks(esClient, bound).Current(ctx, names)).To(Equal(settingsfence.Mark{UID: "u2", Generation: 2}))
	})

	It("keep up with raises while searches come: every read once the bound passed sees the last raise", func() {
		names := newNames()
		writer, reader := settingsfence.NewMarks(esClient, bound), settingsfence.NewMarks(esClient, bound)
		searching, stop := context.WithCancel(ctx)
		defer stop()
		// Searches every few milliseconds keep the reader's mark in use: it is read
		// again in the background, and a search never waits for it.
		go func() {
			defer GinkgoRecover()
			for searching.Err() == nil {
				_, _ = reader.Current(searching, names)
				time.Sleep(3 * time.Millisecond)
			}
		}()
		for gen := int64(1); gen <= 20; gen++ {
			Expect(writer.Raise(ctx, names, settingsfence.Mark{UID: "u1", Generation: gen})).To(Succeed())
			time.Sleep(bound)
			Expect(reader.Current(ctx, names)).To(HaveField("Generation", gen))
		}
	})
})
