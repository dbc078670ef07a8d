package catalog_test

import (
	"context"
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/catalog/catalogtest"
	"github.com/aislehq/aisle/internal/catalog/stage"
	"github.com/aislehq/aisle/internal/controlindex"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/test/esbackend"
	"github.com/aislehq/aisle/test/esspec"
)

// During a rolling upgrade, replicas of the previous version (before 513971f) change the
// revision document beside this version's. Their State has no Landing in its leases:
// any compare-and-set of theirs decodes the document, applies its change and writes the
// whole document back, dropping the landing mark of a write between its landing and its
// completion. The previous types and rule below are that code's, as it was.

// previousLease and previousState are the revision document as the previous version
// decodes and writes it.
type previousLease struct {
	Rev      int64  `json:"rev"`
	Deadline int64  `json:"deadline"`
	Owner    string `json:"owner,omitempty"`
}

type previousState struct {
	Revision   int64            `json:"revision"`
	LastWrite  int64            `json:"lastWrite"`
	Pending    []previousLease  `json:"pending"`
	Fence      *catalog.Fence   `json:"fence"`
	Generation int64            `json:"generation"`
	Bases      map[string]int64 `json:"bases"`
}

// accepted is the previous version's acceptedRevision: the last revision handed out,
// leaving out the reservations (an owner named) on top of it.
func (s previousState) accepted() int64 {
	r := s.Revision
	for r > 0 && slices.ContainsFunc(s.Pending, func(l previousLease) bool { return l.Rev == r && l.Owner != "" }) {
		r--
	}
	return r
}

// rewriteAsPrevious changes the revision document of names as a replica of the previous
// version would: read, decode, write back by compare-and-set.
func rewriteAsPrevious(ctx context.Context, docs *controlindex.Store, names esnames.Index) previousState {
	st, v, err := controlindex.Read[previousState](ctx, docs, names, "revision")
	Expect(err).NotTo(HaveOccurred())
	Expect(v.Found).To(BeTrue())
	_, err = docs.Put(ctx, names.Control(), "revision", v, st)
	Expect(err).NotTo(HaveOccurred())
	return st
}

var _ = Describe("A one-record write whose landing a replica of the previous version overwrites", func() {
	var (
		ctx    context.Context
		a, b   *catalog.Service
		docs   *controlindex.Store
		tg     catalog.Target
		landed catalog.Receipt
		prev   previousState
	)

	BeforeEach(func() {
		ctx = context.Background()
		backend, stop, err := esbackend.Start(ctx, GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(stop)
		rec, err := esspec.Record(backend, GinkgoWriter)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { Expect(rec.Close()).To(Succeed()) })
		client, err := es.New(rec.URL())
		Expect(err).NotTo(HaveOccurred())
		tg = catalog.Target{Names: esnames.For("land", "upgrade"),
			Settings: searchv1alpha1.IndexSettings{SearchableFields: []searchv1alpha1.SearchableField{{Path: "name"}}}}
		Expect(catalogtest.Create(ctx, client, tg.Names, tg.Settings)).To(Succeed())
		docs = controlindex.NewStore(client)
		// a completes its landed writes only when told: the landing stays in the
		// document until the previous version's replica rewrites it.
		a = catalog.New(client, catalog.Config{ReserveIdle: time.Minute})
		b = catalog.New(client, catalog.Config{})

		// a's first write reserves the revision its second one lands at.
		_, err = a.Upsert(ctx, tg, crashRecords("seen", 1))
		Expect(err).NotTo(HaveOccurred())
		_, _, err = stage.Start(ctx, b, tg, "before")
		Expect(err).NotTo(HaveOccurred())
		_, err = stage.Upload(ctx, b, tg, "before", "b1", crashRecords("staged", 2), "h")
		Expect(err).NotTo(HaveOccurred())
		landed, err = a.Upsert(ctx, tg, crashRecords("one", 1))
		Expect(err).NotTo(HaveOccurred())
		st, err := b.ReadState(ctx, tg.Names)
		Expect(err).NotTo(HaveOccurred())
		Expect(st.Pending).To(ContainElement(HaveField("Landing", []string{"one-0"})), "the write is landing, not completed")

		prev = rewriteAsPrevious(ctx, docs, tg.Names)
		st, err = b.ReadState(ctx, tg.Names)
		Expect(err).NotTo(HaveOccurred())
		Expect(st.Pending).NotTo(ContainElement(HaveField("Landing", Not(BeEmpty()))), "the rewrite dropped the landing mark")
	})

	It("still counts the write for a stage started before it, whose commit is refused also if its writer never completes it", func() {
		Expect(prev.LastWrite).To(BeNumerically(">=", landed.AcceptedRevision), "the previous version keeps LastWrite")
		// a dies: the commit runs once its leases have ended, so nothing completes the write.
		later := catalog.New(a.Client(), catalog.Config{Now: func() time.Time { return time.Now().Add(2 * time.Minute) }})
		_, err := stage.Commit(ctx, later, tg, "before", 1, 2)
		Expect(err).To(MatchError(stage.ErrOutdated))
		got, err := b.Get(ctx, tg, "one-0")
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Version).To(Equal(landed.AcceptedRevision))
	})

	It("keeps the write in acceptedRevision for both versions, and counts it indexed once its writer completes it", func() {
		Expect(prev.accepted()).To(BeNumerically(">=", landed.AcceptedRevision), "GET /indexing of a previous replica")
		idx, err := b.Indexing(ctx, tg)
		Expect(err).NotTo(HaveOccurred())
		Expect(idx.AcceptedRevision).To(BeNumerically(">=", landed.AcceptedRevision), "GET /indexing of this version")
		Expect(idx.IndexedRevision).To(BeNumerically("<", landed.AcceptedRevision), "without its mark, the write waits for its completion")

		a.ReleaseReservations(ctx)
		idx, err = b.Indexing(ctx, tg)
		Expect(err).NotTo(HaveOccurred())
		Expect(idx.IndexedRevision).To(BeNumerically(">=", landed.AcceptedRevision))
		Expect(idx.AcceptedRevision).To(Equal(idx.IndexedRevision))
		Expect(idx.RecordCount).To(Equal(int64(2)))
	})
})
