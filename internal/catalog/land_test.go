package catalog_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elastic/go-elasticsearch/v8"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/catalog/catalogtest"
	"github.com/aislehq/aisle/internal/catalog/stage"
	"github.com/aislehq/aisle/internal/es"
)

// The failure paths of a one-record write's landing (write_land.go): the compare-and-set
// that marks its revision landing goes beside its _bulk, so either can fail alone.

// faults sends requests to the engine, and answers the first one that fail matches, once,
// with a 500 in Elasticsearch's error shape (a status the client does not retry).
type faults struct {
	mu   sync.Mutex
	fail func(r *http.Request, body []byte) bool
	hits int
}

func (f *faults) arm(fail func(r *http.Request, body []byte) bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fail, f.hits = fail, 0
}

func (f *faults) hit() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.hits
}

func (f *faults) RoundTrip(r *http.Request) (*http.Response, error) {
	var body []byte
	if r.Body != nil {
		body, _ = io.ReadAll(r.Body)
		_ = r.Body.Close()
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	f.mu.Lock()
	fail := f.fail != nil && f.hits == 0 && f.fail(r, body)
	if fail {
		f.hits++
	}
	f.mu.Unlock()
	if !fail {
		return http.DefaultTransport.RoundTrip(r)
	}
	return &http.Response{StatusCode: http.StatusInternalServerError, Request: r,
		Header: http.Header{"Content-Type": {"application/json"}, "X-Elastic-Product": {"Elasticsearch"}},
		Body:   io.NopCloser(strings.NewReader(`{"error":{"type":"injected_fault","reason":"injected"},"status":500}`))}, nil
}

// landingPair is replica a, whose requests f can fail, and replica b, on one engine.
func landingPair(t *testing.T, name string) (a, b *catalog.Service, f *faults, tg catalog.Target) {
	t.Helper()
	url := catalogtest.StartEngine(t)
	f = &faults{}
	client := func(tr http.RoundTripper) *elasticsearch.TypedClient {
		c, err := elasticsearch.NewTypedClient(elasticsearch.Config{Addresses: []string{url}, Transport: tr})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	plain := client(http.DefaultTransport)
	tg = newTarget(t, plain, "land", name, searchv1alpha1.IndexSettings{SearchableFields: []searchv1alpha1.SearchableField{{Path: "name"}}})
	// No completion in the background: what the revision document holds is the landing's.
	a = catalog.New(client(f), catalog.Config{ReserveIdle: time.Minute})
	return a, catalog.New(plain, catalog.Config{}), f, tg
}

func isLandingPut(r *http.Request, body []byte) bool {
	return r.Method == http.MethodPut && strings.HasSuffix(r.URL.Path, "/_doc/revision") && bytes.Contains(body, []byte(`"landing"`))
}

func isRecordsBulk(r *http.Request, _ []byte) bool {
	return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, ".records/_bulk") && r.URL.Query().Get("refresh") == "wait_for"
}

func pendingRev(st catalog.State, rev int64) (catalog.Lease, bool) {
	i := slices.IndexFunc(st.Pending, func(l catalog.Lease) bool { return l.Rev == rev })
	if i < 0 {
		return catalog.Lease{}, false
	}
	return st.Pending[i], true
}

func TestAOneRecordWriteWhoseLandingFailsWhileItsBulkSucceedsAnswersAsBeforeOnceCompleted(t *testing.T) {
	a, b, f, tg := landingPair(t, "casfails")
	ctx := context.Background()
	if _, err := a.Upsert(ctx, tg, crashRecords("seen", 1)); err != nil {
		t.Fatal(err)
	}
	f.arm(isLandingPut)
	r, err := a.Upsert(ctx, tg, crashRecords("one", 1))
	if err != nil || f.hit() != 1 {
		t.Fatalf("the write with its landing refused: %+v %v (faults hit: %d), want a receipt", r, err, f.hit())
	}
	st, err := b.ReadState(ctx, tg.Names)
	if err != nil {
		t.Fatal(err)
	}
	if l, ok := pendingRev(st, r.AcceptedRevision); ok {
		t.Fatalf("revision %d still pending (%+v): the write was answered before its completion", r.AcceptedRevision, l)
	}
	idx, err := b.Indexing(ctx, tg)
	if err != nil || idx.IndexedRevision < r.AcceptedRevision || idx.RecordCount != 2 {
		t.Fatalf("another replica after the 202 %+v: %+v %v", r, idx, err)
	}
	if got, err := b.Get(ctx, tg, "one-0"); err != nil || got.Version != r.AcceptedRevision {
		t.Fatalf("the record: %+v %v, want version %d", got, err, r.AcceptedRevision)
	}
}

func TestAOneRecordWriteWhoseBulkFailsAfterItsLandingWritesNothingAndCountsForStagedCommits(t *testing.T) {
	a, b, f, tg := landingPair(t, "bulkfails")
	ctx := context.Background()
	if _, err := a.Upsert(ctx, tg, crashRecords("seen", 1)); err != nil {
		t.Fatal(err)
	}
	stageUpload(t, b, tg, "before", crashRecords("staged", 2))
	before, err := b.Indexing(ctx, tg)
	if err != nil {
		t.Fatal(err)
	}
	f.arm(isRecordsBulk)
	if r, err := a.Upsert(ctx, tg, crashRecords("lost", 1)); !errors.Is(err, es.ErrUnavailable) || f.hit() != 1 {
		t.Fatalf("the write whose _bulk failed: %+v %v (faults hit: %d), want es.ErrUnavailable", r, err, f.hit())
	}
	if got, err := b.Get(ctx, tg, "lost-0"); err != nil || got.Version != 0 {
		t.Fatalf("the record of the failed write: %+v %v, want none", got, err)
	}
	after, err := b.Indexing(ctx, tg)
	if err != nil {
		t.Fatal(err)
	}
	// Its revision was handed out and is finished: accepted, nothing left pending below it.
	if after.AcceptedRevision != before.AcceptedRevision+1 || after.IndexedRevision != after.AcceptedRevision || after.RecordCount != before.RecordCount {
		t.Fatalf("GET /indexing on another replica: before %+v, after %+v", before, after)
	}
	// The price of landing beside the _bulk: the revision counted as a write once the
	// landing was written, so a stage started before it refuses its commit.
	a.ReleaseReservations(ctx)
	if _, err := stage.Commit(ctx, b, tg, "before", 1, 2); !errors.Is(err, stage.ErrOutdated) {
		t.Fatalf("commit of a stage started before the failed write: %v, want stage.ErrOutdated", err)
	}
	stageUpload(t, b, tg, "after", crashRecords("staged", 2))
	if _, err := stage.Commit(ctx, b, tg, "after", 1, 2); err != nil {
		t.Fatalf("commit of a stage started after it: %v", err)
	}
}

func TestAReaderCountsALandingWriteSearchableOnlyOnceASearchFindsItsRecordAtItsRevision(t *testing.T) {
	a, b, _, tg := landingPair(t, "reader")
	ctx := context.Background()
	if _, err := a.Upsert(ctx, tg, crashRecords("seen", 1)); err != nil {
		t.Fatal(err)
	}
	r, err := a.Upsert(ctx, tg, crashRecords("one", 1))
	if err != nil {
		t.Fatal(err)
	}
	st, err := b.ReadState(ctx, tg.Names)
	if err != nil {
		t.Fatal(err)
	}
	if l, ok := pendingRev(st, r.AcceptedRevision); !ok || !slices.Equal(l.Landing, []string{"one-0"}) {
		t.Fatalf("revision %d in the document %+v: want it pending, landing one-0", r.AcceptedRevision, st)
	}
	if idx, err := b.Indexing(ctx, tg); err != nil || idx.IndexedRevision != r.AcceptedRevision || idx.AcceptedRevision != r.AcceptedRevision {
		t.Fatalf("another replica after the 202 %+v: %+v %v", r, idx, err)
	}

	// A writer that landed and died before its _bulk: its record is not there. (a's
	// reservation goes first, which would hold indexedRevision below it.)
	a.ReleaseReservations(ctx)
	var ghost catalog.Lease
	if _, err := b.Update(ctx, tg.Names, func(st catalog.State) (catalog.State, error) {
		next, l, err := st.Allocate(time.Now(), catalog.DefaultWriteLease)
		if err != nil {
			return st, err
		}
		ghost = l
		return next.Land(time.Now(), l.Rev, []string{"ghost-0"})
	}); err != nil {
		t.Fatal(err)
	}
	if idx, err := b.Indexing(ctx, tg); err != nil || idx.IndexedRevision != ghost.Rev-1 || idx.AcceptedRevision != ghost.Rev {
		t.Fatalf("with revision %d landing a record that is not there: %+v %v", ghost.Rev, idx, err)
	}
	// Once its lease ended, readers count past it, and it still counts as a write.
	later := catalog.New(b.Client(), catalog.Config{Now: func() time.Time { return time.Now().Add(2 * time.Minute) }})
	idx, err := later.Indexing(ctx, tg)
	if err != nil || idx.IndexedRevision < ghost.Rev {
		t.Fatalf("after the dead writer's lease: %+v %v", idx, err)
	}
	if st, err := later.ReadState(ctx, tg.Names); err != nil || st.LastWrite < ghost.Rev {
		t.Fatalf("the dead writer's revision %d does not count as a write: %+v %v", ghost.Rev, st, err)
	}
}
