package controllers

import "sync"

// dueRuns is the one in-process scheduler of the reconciler's periodic tasks (events
// retention, signals refreshes): per SearchIndex stem it remembers the last run in this
// process, of type V (when it ran, and what with). A restart runs every task again at
// once, which its tasks allow: each is idempotent or overwrites what the last run wrote.
type dueRuns[V any] struct {
	mu   sync.Mutex
	last map[string]V
}

// claim reports whether a run of stem is due, as due says of its last run (ran is false
// when there was none), and if so records next as its run: of concurrent reconciles of
// one stem, one claims it.
func (d *dueRuns[V]) claim(stem string, due func(last V, ran bool) bool, next V) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	last, ran := d.last[stem]
	if !due(last, ran) {
		return false
	}
	if d.last == nil {
		d.last = map[string]V{}
	}
	d.last[stem] = next
	return true
}

// release forgets a failed run, so the next reconcile tries again.
func (d *dueRuns[V]) release(stem string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.last, stem)
}
