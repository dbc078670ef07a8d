package catalog

import (
	"errors"
	"slices"
	"testing"
	"time"
)

func TestLandedRevisions(t *testing.T) {
	now := time.UnixMilli(1_000_000)
	pending := func(revs ...int64) []Lease {
		out := make([]Lease, len(revs))
		for i, r := range revs {
			out[i] = Lease{Rev: r, Deadline: now.Add(time.Minute).UnixMilli()}
		}
		return out
	}
	cases := []struct {
		name        string
		st          State
		land        int64
		covered     []int64
		wantErr     error
		wantLanded  []int64
		wantIndexed int64 // of the state after landing, nothing covered
		wantOwn     int64 // the same, with the landed revision and covered known searchable
	}{
		{name: "a lone write lands and is not indexed until a refresh is known",
			st: State{Revision: 5, LastWrite: 4, Pending: pending(5)}, land: 5,
			wantLanded: []int64{5}, wantIndexed: 4, wantOwn: 5},
		{name: "landing drops the landed revisions covered",
			st: State{Revision: 6, Pending: pending(6), Landed: []int64{4, 5}}, land: 6, covered: []int64{5},
			wantLanded: []int64{4, 6}, wantIndexed: 3, wantOwn: 3},
		{name: "covering every earlier landed revision",
			st: State{Revision: 6, Pending: pending(6), Landed: []int64{4, 5}}, land: 6, covered: []int64{4, 5},
			wantLanded: []int64{6}, wantIndexed: 5, wantOwn: 6},
		{name: "a lower pending revision still holds indexedRevision",
			st: State{Revision: 7, Pending: pending(6, 7)}, land: 7,
			wantLanded: []int64{7}, wantIndexed: 5, wantOwn: 5},
		{name: "a revision no longer pending cannot land",
			st: State{Revision: 7, Pending: pending(6)}, land: 7, wantErr: ErrLeaseLost},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := slices.Clone(c.st.Landed)
			got, err := c.st.Land(now, c.land, c.covered)
			if !slices.Equal(c.st.Landed, before) {
				t.Fatal("landing changed the state it was given")
			}
			if !errors.Is(err, c.wantErr) {
				t.Fatalf("land: %v, want %v", err, c.wantErr)
			}
			if err != nil {
				return
			}
			if !slices.Equal(got.Landed, c.wantLanded) || got.LastWrite < c.land {
				t.Fatalf("landed %v lastWrite %d, want %v and at least %d", got.Landed, got.LastWrite, c.wantLanded, c.land)
			}
			if slices.ContainsFunc(got.Pending, func(l Lease) bool { return l.Rev == c.land }) {
				t.Fatalf("revision %d still pending: %+v", c.land, got.Pending)
			}
			if i := got.Indexed(); i != c.wantIndexed {
				t.Fatalf("indexed %d, want %d", i, c.wantIndexed)
			}
			if i := got.IndexedCovering(append([]int64{c.land}, c.covered...)); i != c.wantOwn {
				t.Fatalf("indexed covering %d, want %d", i, c.wantOwn)
			}
		})
	}
}



// TestALandedWriteIsIndexedOnEveryReplica: a write's receipt and GET /indexing on
// another replica count the write once its 202 is given, although its revision landed
// beside its refresh, and the next write drops the landed revision it read.
func TestALandedWriteIsIndexedOnEveryReplica(t *testing.T) {
	cfg := Config{ReserveIdle: time.Minute}
	p := newReplicaPair(t, "landed", cfg, cfg)
	ctx := t.Context()
	r, err := p.a.Upsert(ctx, p.tg, crashRecords("a", 1))
	if err != nil {
		t.Fatal(err)
	}
	if r.IndexedRevision != r.AcceptedRevision {
		t.Fatalf("the receipt: %+v", r)
	}
	st, err := p.b.ReadState(ctx, p.tg.Names)
	if err != nil || !slices.Contains(st.Landed, r.AcceptedRevision) {
		t.Fatalf("the revision document after the write: %+v %v, want %d landed", st, err, r.AcceptedRevision)
	}
	idx, err := p.b.Indexing(ctx, p.tg)
	if err != nil || idx.IndexedRevision != r.AcceptedRevision || idx.RecordCount != 1 {
		t.Fatalf("GET /indexing on the other replica: %+v %v, want indexed %d and 1 record", idx, err, r.AcceptedRevision)
	}
	// a holds the next revision reserved, below b's: b's receipt counts a's write, not
	// the reservation.
	next, err := p.b.Upsert(ctx, p.tg, crashRecords("b", 1))
	if err != nil || next.IndexedRevision != r.AcceptedRevision {
		t.Fatalf("the other replica's write: %+v %v, want indexed %d", next, err, r.AcceptedRevision)
	}
	if st, _ := p.b.ReadState(ctx, p.tg.Names); slices.Contains(st.Landed, r.AcceptedRevision) {
		t.Fatalf("the next write left %d landed: %+v", r.AcceptedRevision, st)
	}
}
