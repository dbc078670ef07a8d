package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// The landing of a one-record write, beside its _bulk (state_land.go says what the
// revision document holds). A write's apply step calls run.land right before the _bulk
// of its one record; the compare-and-set that marks the revision landing then runs at
// the same time as the _bulk, and also completes this replica's earlier landed writes
// and reserves the next revision. When both succeed, the write's 202 follows without a
// second durable write. When the landing fails and the _bulk succeeds, the write
// completes as before, after the _bulk (conclude); when the _bulk fails, the revision
// is finished unapplied, as before, its LastWrite raised already.

// run is what a write's apply step gets: its revision, and land, which sends the
// landing of the records ids (one record) beside the _bulk about to go. land may be
// called more than once (a partial update's retried round); the first call counts.
type run struct {
	rev  int64
	land func(ids []string)
}

// landing is one write's landing compare-and-set, in flight or done.
type landing struct {
	s       *Service
	ctx     context.Context
	names   esnames.Index
	rev     int64
	once    sync.Once
	started bool
	done    chan struct{}
	st      State
	err     error
}

func (s *Service) newLanding(ctx context.Context, names esnames.Index, rev int64) *landing {
	return &landing{s: s, ctx: ctx, names: names, rev: rev, done: make(chan struct{})}
}

// start sends the landing once; it is called from the apply step's goroutine.
func (l *landing) start(ids []string) {
	l.once.Do(func() {
		l.started = true
		go l.send(ids)
	})
}

// wait reports whether the landing was written, once it is over.
func (l *landing) wait() bool {
	if !l.started {
		return false
	}
	<-l.done
	return l.err == nil
}

// send writes the landing: the earlier landed writes completed, rev marked landing,
// and the next revision reserved when no other write holds one (as completeReserving).
func (l *landing) send(ids []string) {
	defer close(l.done)
	s := l.s
	prev, _ := s.landed.take(l.names)
	_, held := s.held.peek(l.names)
	wanted := !held
	var reserved Lease
	st, err := s.Update(l.ctx, l.names, func(st State) (State, error) {
		reserved = Lease{}
		now := s.cfg.Now()
		next, err := st.completeLanded(now, prev).Land(now, l.rev, ids)
		if err != nil || !wanted || next.writingBesides(l.rev) {
			return next, err
		}
		if r, rl, err := next.Reserve(now, s.cfg.WriteLease, s.owner); err == nil {
			next, reserved = r, rl
		}
		return next, nil
	})
	if err != nil {
		s.addLanded(l.names, prev...) // still to complete
		l.err = fmt.Errorf("landing revision %d of %s: %w", l.rev, l.names.Alias(), err)
		return
	}
	if reserved.Rev != 0 {
		s.keepReserved(l.names, reserved)
	}
	l.st = st
}

// concludeLanded (step 5) answers a write whose landing and _bulk both succeeded: its
// revision is completed later (addLanded), its receipt counts it searchable.
func (s *Service) concludeLanded(ctx context.Context, names esnames.Index, g grant, ch change, st State) (Receipt, error) {
	s.addLanded(names, g.lease.Rev)
	alias := names.Alias()
	n, _, exact := s.countBefore(alias, g.lease, g.reserved, g.alone)
	if exact {
		n += ch.added
	} else {
		var err error
		if n, err = s.Count(ctx, alias); err != nil {
			return Receipt{}, err
		}
	}
	s.counts.set(alias, knownCount{n: n, rev: g.lease.Rev, exact: g.alone})
	indexed := st.Prune(s.cfg.Now()).IndexedBesides(s.landedDone(names))
	return Receipt{AcceptedRevision: g.lease.Rev, IndexedRevision: indexed, RecordCount: n}, nil
}

// addLanded notes revs as landed by this replica, applied and searchable, to complete
// in its next landing, or after Config.ReserveIdle.
func (s *Service) addLanded(names esnames.Index, revs ...int64) {
	if len(revs) == 0 {
		return
	}
	more := func(held []int64) ([]int64, bool) { return append(held, revs...), true }
	s.landed.put(names, revs, s.cfg.ReserveIdle, more, func(revs []int64) {
		s.completeLandedRevs(context.Background(), names, revs)
	})
}

// completeLandedRevs completes landed revisions in one compare-and-set.
func (s *Service) completeLandedRevs(ctx context.Context, names esnames.Index, revs []int64) {
	s.settle(ctx, names, func(st State, now time.Time) State { return st.completeLanded(now, revs) })
}

// searchableLandings adds to done the landing revisions of st whose records a search
// finds at their revision: their writes are searchable.
func (s *Service) searchableLandings(ctx context.Context, names esnames.Index, st State, done map[int64]bool) error {
	leases := st.landings(done)
	if len(leases) == 0 {
		return nil
	}
	var ids []string
	for _, l := range leases {
		ids = append(ids, l.Landing...)
	}
	body, err := json.Marshal(map[string]any{"size": len(ids), "query": map[string]any{"ids": map[string]any{"values": ids}},
		"_source": []string{indexmapping.VersionField}})
	if err != nil {
		return fmt.Errorf("encoding the search of landing records: %w", err)
	}
	raw, err := es.ReadBody(s.es.Search().Index(names.Alias()).Raw(bytes.NewReader(body)).Perform(ctx)) //nolint:bodyclose // ReadBody closes it
	if err != nil {
		return fmt.Errorf("searching the landing records of %s: %w", names.Alias(), err)
	}
	var out struct {
		Hits struct {
			Hits []struct {
				ID     string           `json:"_id"`
				Source map[string]int64 `json:"_source"`
			} `json:"hits"`
		} `json:"hits"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return fmt.Errorf("decoding the landing records of %s: %w", names.Alias(), err)
	}
	found := map[string]int64{}
	for _, h := range out.Hits.Hits {
		found[h.ID] = h.Source[indexmapping.VersionField]
	}
	for _, l := range leases {
		all := true
		for _, id := range l.Landing {
			all = all && found[id] == l.Rev
		}
		done[l.Rev] = all
	}
	return nil
}

// landedDone is the set of revisions this replica landed for names and has not
// completed yet.
func (s *Service) landedDone(names esnames.Index) map[int64]bool {
	revs, _ := s.landed.peek(names)
	out := make(map[int64]bool, len(revs))
	for _, rev := range revs {
		out[rev] = true
	}
	return out
}
