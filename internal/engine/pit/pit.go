// Package pit holds Elasticsearch's points in time: frozen copies of indices (see
// store.Index.Freeze) that searches name by an id, kept alive while they are used and
// released when they are closed or stay idle past their keep_alive.
package pit

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/store"
)

// DefaultMaxOpen bounds the points in time open at once, as Elasticsearch's
// search.max_open_scroll_context (500) does: each holds its indices' segments and a copy
// of their documents' states (about 100 bytes a document), so an idle client cannot hold
// the engine's memory and disk without bound.
const DefaultMaxOpen = 500

// MaxKeepAlive is the longest keep_alive a request may ask, Elasticsearch's default
// search.max_keep_alive.
const MaxKeepAlive = 24 * time.Hour

// PIT is an open point in time.
type PIT struct {
	ID      string
	Indices []*store.Index // frozen
	// Filters are the filters of the filtered aliases the point in time was opened
	// through, by index name, applied to every search of it.
	Filters map[string][]json.RawMessage

	use      sync.RWMutex // held shared by searches; exclusively to release
	timer    *time.Timer
	deadline time.Time // guarded by the registry's mu
}

// Registry holds the open points in time of one engine. The zero value is not usable:
// make one with New.
type Registry struct {
	max  int
	mu   sync.Mutex
	open map[string]*PIT
	// opening counts the points in time whose indices are being frozen.
	opening int
	now     func() time.Time
}

// New returns a registry holding at most maxOpen points in time.
func New(maxOpen int) *Registry {
	return &Registry{max: maxOpen, open: map[string]*PIT{}, now: time.Now}
}

// Open freezes indices (live ones) into a point in time kept for keepAlive.
func (r *Registry) Open(indices []*store.Index, filters map[string][]json.RawMessage, keepAlive time.Duration) (*PIT, error) {
	if err := r.reserve(); err != nil {
		return nil, err
	}
	p := &PIT{ID: newID(), Filters: filters}
	for _, ix := range indices {
		fz, err := ix.Freeze()
		if err != nil {
			p.release()
			r.unreserve()
			return nil, err
		}
		p.Indices = append(p.Indices, fz)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.opening--
	p.deadline = r.now().Add(keepAlive)
	r.open[p.ID] = p
	p.timer = time.AfterFunc(keepAlive, func() { r.expire(p.ID) })
	return p, nil
}

// reserve counts a point in time being opened (its indices freezing) against the bound.
func (r *Registry) reserve() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.open)+r.opening >= r.max {
		return eserr.New(429, "es_rejected_execution_exception",
			"Trying to create too many Point In Times. Must be less than or equal to: [%d]. Close unused point in times.", r.max)
	}
	r.opening++
	return nil
}

func (r *Registry) unreserve() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.opening--
}

// Acquire returns the open point in time id for one search, extending its keep_alive when
// keepAlive is set; done must be called when the search has finished with it.
func (r *Registry) Acquire(id string, keepAlive time.Duration) (p *PIT, done func(), err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p = r.open[id]
	if p == nil || p.gone() {
		return nil, nil, missing(id)
	}
	if keepAlive > 0 {
		p.deadline = r.now().Add(keepAlive)
		p.timer.Reset(keepAlive)
	}
	p.use.RLock()
	return p, p.use.RUnlock, nil
}

// Close releases the points in time ids names and returns how many were open.
func (r *Registry) Close(ids []string) int {
	freed := 0
	for _, id := range ids {
		if p := r.remove(id); p != nil {
			p.timer.Stop()
			p.release()
			freed++
		}
	}
	return freed
}

// Len is the number of points in time open.
func (r *Registry) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.open)
}

// CloseAll releases every point in time, for the engine's shutdown.
func (r *Registry) CloseAll() {
	r.mu.Lock()
	ids := make([]string, 0, len(r.open))
	for id := range r.open {
		ids = append(ids, id)
	}
	r.mu.Unlock()
	r.Close(ids)
}

func (r *Registry) remove(id string) *PIT {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.open[id]
	if p != nil {
		delete(r.open, id)
	}
	return p
}

// expire releases id when its keep_alive has passed; a search that extended it after
// the timer fired moved its deadline, and the reset timer fires again then.
func (r *Registry) expire(id string) {
	r.mu.Lock()
	p := r.open[id]
	if p == nil || r.now().Before(p.deadline) {
		r.mu.Unlock()
		return
	}
	delete(r.open, id)
	r.mu.Unlock()
	p.release()
}

// gone reports whether an index p holds was deleted since it opened: Elasticsearch
// then answers its searches as it answers an expired one.
func (p *PIT) gone() bool {
	for _, ix := range p.Indices {
		if ix.Gone() {
			return true
		}
	}
	return false
}

// release waits for the searches using p and gives back what its indices hold.
func (p *PIT) release() {
	p.use.Lock()
	defer p.use.Unlock()
	for _, ix := range p.Indices {
		_ = ix.Release()
	}
}

func missing(id string) error {
	return eserr.New(404, "search_context_missing_exception", "No search context found for id [%s]", id)
}

func newID() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// keepAliveUnits are Elasticsearch's time units, longest suffix first where one ends
// another.
var keepAliveUnits = []struct {
	suffix string
	unit   time.Duration
}{{"nanos", time.Nanosecond}, {"micros", time.Microsecond}, {"ms", time.Millisecond}, {"s", time.Second},
	{"m", time.Minute}, {"h", time.Hour}, {"d", 24 * time.Hour}}

// ParseKeepAlive reads a keep_alive time value ("30s", "1m", "1h") of at most
// MaxKeepAlive.
func ParseKeepAlive(s string) (time.Duration, error) {
	for _, u := range keepAliveUnits {
		num, ok := strings.CutSuffix(s, u.suffix)
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil || n <= 0 || n > int64(MaxKeepAlive/u.unit) {
			break
		}
		return time.Duration(n) * u.unit, nil
	}
	if s == "" {
		return 0, eserr.ActionValidation("[keep_alive] is not specified")
	}
	return 0, eserr.New(400, "parse_exception", "failed to parse setting [keep_alive] with value [%s] as a time value of at most %s", s, MaxKeepAlive)
}
