package catalog

import (
	"sync"
	"time"

	"github.com/aislehq/aisle/internal/esnames"
)

// idleSlots hold one value per control index for a while: a value nobody takes within
// its idle time goes to its expire function. This replica's reservations
// (write_reserve.go) and its landed revisions (write_land.go) are both held this way.
type idleSlots[V any] struct {
	mu sync.Mutex
	m  map[string]*idleSlot[V]
}

type idleSlot[V any] struct {
	names esnames.Index
	v     V
	timer *time.Timer
}

// put holds v for names, expiring after idle. When a value is held already, merge says
// what to hold instead (the first value's timer runs on), or false to refuse v.
func (r *idleSlots[V]) put(names esnames.Index, v V, idle time.Duration, merge func(held V) (V, bool), expire func(V)) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	control := names.Control()
	if slot, ok := r.m[control]; ok {
		next, ok := merge(slot.v)
		if ok {
			slot.v = next
		}
		return ok
	}
	if r.m == nil {
		r.m = map[string]*idleSlot[V]{}
	}
	slot := &idleSlot[V]{names: names, v: v}
	slot.timer = time.AfterFunc(idle, func() {
		r.mu.Lock()
		mine := r.m[control] == slot
		if mine {
			delete(r.m, control)
		}
		v := slot.v
		r.mu.Unlock()
		if mine {
			expire(v)
		}
	})
	r.m[control] = slot
	return true
}

// take hands over the value held for names.
func (r *idleSlots[V]) take(names esnames.Index) (V, bool) { return r.get(names, true) }

// peek is the value held for names, left held.
func (r *idleSlots[V]) peek(names esnames.Index) (V, bool) { return r.get(names, false) }

func (r *idleSlots[V]) get(names esnames.Index, take bool) (V, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	slot, ok := r.m[names.Control()]
	if !ok {
		var zero V
		return zero, false
	}
	if take {
		slot.timer.Stop()
		delete(r.m, names.Control())
	}
	return slot.v, true
}

// takeAll hands over every value held (a replica shutting down).
func (r *idleSlots[V]) takeAll() []idleSlot[V] {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]idleSlot[V], 0, len(r.m))
	for control, slot := range r.m {
		slot.timer.Stop()
		out = append(out, *slot)
		delete(r.m, control)
	}
	return out
}
