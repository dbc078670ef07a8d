package catalog

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aislehq/aisle/internal/catalog/wait"
	"github.com/aislehq/aisle/internal/controlindex"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
)

// revisionID is the id of the revision document in the control index.
const revisionID = "revision"

// loadState reads the revision document; a missing one is the zero state.
func (s *Service) loadState(ctx context.Context, names esnames.Index) (State, controlindex.Versioned, error) {
	return controlindex.Read[State](ctx, s.docs, names, revisionID)
}

// ReadState reads the revision document of names; a missing one is the zero state.
func (s *Service) ReadState(ctx context.Context, names esnames.Index) (State, error) {
	st, _, err := s.loadState(ctx, names)
	return st, err
}

// The changes of the revision document that the writers of one replica ask for are
// grouped: they wait in a queue per index, and one flush applies every change waiting to
// the document in a single compare-and-set. The flush compares against the document as
// this replica last wrote or read it, without reading it first; when someone else changed
// it meanwhile (another replica, the operator), the compare-and-set fails, and the flush
// reads the document and applies the whole group again. A flush in which every change
// failed against the remembered document reads it before believing the failures, so a
// remembered fence or lease never refuses a writer on its own.

// stateChange is one writer's change of the revision document, waiting for its flush.
type stateChange struct {
	fn   func(State) (State, error)
	ctx  context.Context
	st   State
	err  error
	done chan struct{}
}

func (c *stateChange) finish(st State, err error) {
	c.st, c.err = st, err
	close(c.done)
}

// knownState is the revision document as this replica last wrote or read it, at.
type knownState struct {
	st State
	v  controlindex.Versioned
	at time.Time
}

// rememberFor bounds how long a remembered document is compared against. A SearchIndex
// deleted and created again under the same name starts a new document whose sequence
// numbers start over: a compare-and-set against an old one could succeed by chance.
const rememberFor = time.Second

// stateGroup queues the changes of one index's revision document; at most one flush
// runs at a time.
type stateGroup struct {
	mu      sync.Mutex
	queue   []*stateChange
	running bool
	known   *knownState
}

// add queues c and reports whether the caller must start the flushing goroutine.
func (g *stateGroup) add(c *stateChange) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.queue = append(g.queue, c)
	start := !g.running
	g.running = true
	return start
}

// take returns the waiting changes whose writers still wait, or nil once the queue is
// empty, when the flushing goroutine must end.
func (g *stateGroup) take() []*stateChange {
	g.mu.Lock()
	defer g.mu.Unlock()
	batch := make([]*stateChange, 0, len(g.queue))
	for _, c := range g.queue {
		if err := c.ctx.Err(); err != nil {
			c.finish(State{}, err)
			continue
		}
		batch = append(batch, c)
	}
	g.queue = nil
	if len(batch) == 0 {
		g.running = false
		return nil
	}
	return batch
}

func (g *stateGroup) remembered() *knownState {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.known == nil || time.Since(g.known.at) > rememberFor {
		return nil
	}
	return g.known
}

// remember notes the document st, at version v.
func (g *stateGroup) remember(st State, v controlindex.Versioned) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.known = &knownState{st: st, v: v, at: time.Now()}
}

func (g *stateGroup) forget() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.known = nil
}

// stateGroups holds a stateGroup per control index.
type stateGroups struct{ m sync.Map }

func (gs *stateGroups) of(control string) *stateGroup {
	g, _ := gs.m.LoadOrStore(control, &stateGroup{})
	return g.(*stateGroup)
}

// applyChanges folds the batch's changes over st in order: a change that fails leaves the
// state as it was for the next one. ok says whether any change succeeded.
func applyChanges(st State, batch []*stateChange) (next State, errs []error, ok bool) {
	errs = make([]error, len(batch))
	next = st
	for i, c := range batch {
		changed, err := c.fn(next)
		if errs[i] = err; err == nil {
			next, ok = changed, true
		}
	}
	return next, errs, ok
}

// maxFlush bounds a flush whose writers stopped waiting for their contexts.
const maxFlush = time.Minute

// update applies fn to the revision document by compare-and-set, grouped with the
// changes other writers of this replica ask for meanwhile. fn must be pure: it may run
// many times. It returns the document as written, after the whole group's changes.
func (s *Service) Update(ctx context.Context, names esnames.Index, fn func(State) (State, error)) (State, error) {
	if err := ctx.Err(); err != nil {
		return State{}, err
	}
	g := s.groups.of(names.Control())
	c := &stateChange{fn: fn, ctx: ctx, done: make(chan struct{})}
	if g.add(c) {
		s.lead(names, g)
	}
	<-c.done
	return c.st, c.err
}

// lead flushes the group as the writer that found it idle: the first batch, which holds
// the leader's own change, in the leader's goroutine (no hand-off to wait for), the
// batches queued meanwhile in another, so that the leader never waits for them.
func (s *Service) lead(names esnames.Index, g *stateGroup) {
	batch := g.take()
	if batch == nil {
		// Every change queued was cancelled, and the group is idle again: a writer that
		// queues now leads, so this one must not take its change too.
		return
	}
	s.flush(names, g, batch)
	if next := g.take(); next != nil {
		go s.drain(names, g, next)
	}
}

// drain flushes batch and the batches queued after it until the queue is empty.
func (s *Service) drain(names esnames.Index, g *stateGroup, batch []*stateChange) {
	for ; batch != nil; batch = g.take() {
		s.flush(names, g, batch)
	}
}

// flush writes the batch's changes in one compare-and-set, retrying on conflicts with
// jittered backoff while other replicas change the document first.
func (s *Service) flush(names esnames.Index, g *stateGroup, batch []*stateChange) {
	ctx, cancel := batchContext(batch)
	defer cancel()
	for attempt := 0; ; attempt++ {
		// Only the first attempt trusts the remembered document: a retry follows a
		// conflict or refusals, and reads it.
		var known *knownState
		if attempt == 0 {
			known = g.remembered()
		}
		fresh := false
		if known == nil {
			st, v, err := s.loadState(ctx, names)
			if err != nil {
				finishAll(batch, State{}, err)
				return
			}
			known, fresh = &knownState{st: st, v: v}, true
			g.remember(st, v)
		}
		next, errs, ok := applyChanges(known.st, batch)
		if !ok && !fresh {
			continue
		}
		if !ok {
			finishEach(batch, known.st, errs)
			return
		}
		v, err := s.docs.Put(ctx, names.Control(), revisionID, known.v, next)
		if err == nil {
			g.remember(next, v)
			finishEach(batch, next, errs)
			return
		}
		g.forget()
		if !errors.Is(err, es.ErrConflict) {
			finishAll(batch, State{}, err)
			return
		}
		if attempt > 0 {
			if err := wait.Sleep(ctx, wait.Backoff(attempt-1, 2*time.Millisecond, 100*time.Millisecond)); err != nil {
				finishAll(batch, State{}, err)
				return
			}
		}
	}
}

// batchContext ends when every writer of the batch stopped waiting, or after maxFlush.
func batchContext(batch []*stateChange) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.Background(), maxFlush)
	var left atomic.Int64
	left.Store(int64(len(batch)))
	stops := make([]func() bool, len(batch))
	for i, c := range batch {
		stops[i] = context.AfterFunc(c.ctx, func() {
			if left.Add(-1) == 0 {
				cancel()
			}
		})
	}
	return ctx, func() {
		for _, stop := range stops {
			stop()
		}
		cancel()
	}
}

func finishAll(batch []*stateChange, st State, err error) {
	for _, c := range batch {
		c.finish(st, err)
	}
}

func finishEach(batch []*stateChange, st State, errs []error) {
	for i, c := range batch {
		c.finish(st, errs[i])
	}
}
