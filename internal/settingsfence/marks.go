package settingsfence

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	"golang.org/x/sync/singleflight"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/controlindex"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
)

// DefaultBound is how long a replica trusts a mark it read: what a write waits, and at
// most twice a second a background read per index searched.
const DefaultBound = 250 * time.Millisecond

// markID is the control document holding an index's mark.
const markID = "settings"

// maxRaise bounds the compare-and-set attempts of one raise against other writers.
const maxRaise = 20

// Mark is the newest generation of a SearchIndex an API server wrote, and of which
// object (an index deleted and created again starts over).
type Mark struct {
	UID        string `json:"uid"`
	Generation int64  `json:"generation"`
}

// HeldBy reports whether idx holds what the mark says was written: its generation or a
// later one, or idx is another object than the one written.
func (m Mark) HeldBy(idx *searchv1alpha1.SearchIndex) bool {
	return m.UID != string(idx.UID) || idx.Generation >= m.Generation
}

// raises reports whether m must replace prev: it names another object, or a later
// generation.
func (m Mark) raises(prev Mark) bool {
	return m.UID != prev.UID || m.Generation > prev.Generation
}

// use is what Current does with a mark read age ago.
type use int

const (
	useHeld    use = iota // trust it
	useRefresh            // trust it, and read it again in the background
	readNow               // read it before answering
)

// decide picks what to do with a mark held (or not), read age ago, trusted for bound.
func decide(held bool, age, bound time.Duration) use {
	switch {
	case !held || age >= bound:
		return readNow
	case age >= bound/2:
		return useRefresh
	default:
		return useHeld
	}
}

// Marks reads and raises the marks of indexes, each kept for less than its bound after
// the read was sent.
type Marks struct {
	es    *elasticsearch.TypedClient
	docs  *controlindex.Store
	bound time.Duration
	now   func() time.Time

	mu      sync.Mutex
	entries map[string]markRead // by the index's stem
	group   singleflight.Group
}

// markRead is a mark as read by a request sent at sentAt.
type markRead struct {
	mark   Mark
	sentAt time.Time
}

// NewMarks returns marks kept in the control indexes of client, trusted for bound.
func NewMarks(client *elasticsearch.TypedClient, bound time.Duration) *Marks {
	return &Marks{es: client, docs: controlindex.NewStore(client), bound: bound, now: time.Now, entries: map[string]markRead{}}
}

// Raise raises the mark of names to m, unless it holds m or a later generation already.
func (k *Marks) Raise(ctx context.Context, names esnames.Index, m Mark) error {
	control := names.Control()
	if err := k.docs.Ensure(ctx, control); err != nil {
		return err
	}
	for attempt := 0; attempt < maxRaise; attempt++ {
		sent := k.now()
		prev, v, err := controlindex.Read[Mark](ctx, k.docs, names, markID)
		if err != nil {
			return err
		}
		if !m.raises(prev) {
			k.keep(names, markRead{mark: prev, sentAt: sent})
			return nil
		}
		_, err = k.docs.Put(ctx, control, markID, v, m)
		if errors.Is(err, es.ErrConflict) {
			continue
		}
		if err != nil {
			return err
		}
		k.keep(names, markRead{mark: m, sentAt: sent})
		return nil
	}
	return fmt.Errorf("%w: the settings mark of %s kept changing", es.ErrUnavailable, names.Stem())
}

// Current returns the mark of names as read less than the bound before now (a mark
// raised before that and acknowledged, or a later one).
func (k *Marks) Current(ctx context.Context, names esnames.Index) (Mark, error) {
	start := k.now()
	k.mu.Lock()
	r, held := k.entries[names.Stem()]
	k.mu.Unlock()
	switch decide(held, start.Sub(r.sentAt), k.bound) {
	case useHeld:
		return r.mark, nil
	case useRefresh:
		// The one read per index in flight runs on without this request.
		k.group.DoChan(names.Stem(), k.reading(context.WithoutCancel(ctx), names))
		return r.mark, nil
	}
	for {
		r, err := k.read(ctx, names)
		if err != nil {
			return Mark{}, err
		}
		// A read already in flight may have been sent too long ago; the next is not.
		if r.sentAt.After(start.Add(-k.bound)) {
			return r.mark, nil
		}
	}
}

// read reads the mark of names, one read at a time per index, and keeps it.
func (k *Marks) read(ctx context.Context, names esnames.Index) (markRead, error) {
	v, err, _ := k.group.Do(names.Stem(), k.reading(ctx, names))
	if err != nil {
		return markRead{}, err
	}
	return v.(markRead), nil
}

// reading is the read of read: it fetches the mark and keeps it.
func (k *Marks) reading(ctx context.Context, names esnames.Index) func() (any, error) {
	return func() (any, error) {
		sent := k.now()
		m, err := k.fetch(ctx, names)
		if err != nil {
			return nil, err
		}
		r := markRead{mark: m, sentAt: sent}
		k.keep(names, r)
		return r, nil
	}
}

// fetch reads the mark in real time; an index without a control index has none.
func (k *Marks) fetch(ctx context.Context, names esnames.Index) (Mark, error) {
	res, err := k.es.Get(names.Control(), markID).Realtime(true).Do(ctx)
	err = es.Classify(err)
	switch {
	case errors.Is(err, es.ErrNotFound):
		return Mark{}, nil
	case err != nil:
		return Mark{}, fmt.Errorf("reading the settings mark of %s: %w", names.Stem(), err)
	case !res.Found:
		return Mark{}, nil
	}
	var m Mark
	if err := json.Unmarshal(res.Source_, &m); err != nil {
		return Mark{}, fmt.Errorf("decoding the settings mark of %s: %w", names.Stem(), err)
	}
	return m, nil
}

// keep stores r unless a read sent later is kept already.
func (k *Marks) keep(names esnames.Index, r markRead) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if prev, ok := k.entries[names.Stem()]; !ok || r.sentAt.After(prev.sentAt) {
		k.entries[names.Stem()] = r
	}
}
