// Package history keeps the versions of what merchandisers change through the API (an
// index's settings, its merchandising rules), so that one can be put back: each write
// records the state it left, with who wrote it and when.
//
// How versions are stored. Everything lives in the index's control index
// (internal/controlindex), so it survives restarts and every API server replica reads
// the same. The head document "history.<kind>" lists the last MaxVersions versions
// (number, time, author, summary) and is changed only by compare-and-set, which numbers
// versions in one order for every replica. A version's state is held apart, gzipped, in
// payload documents "history.<kind>.<random>.<n>" of at most chunkBytes each (a rule set
// may take megabytes): they are written before the head names them, so a reader never
// finds a version without its state; a writer that stopped in between leaves payload
// documents nothing names, and those of versions that fall off the list are deleted.
package history

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/elastic/go-elasticsearch/v8"

	"github.com/aislehq/aisle/internal/controlindex"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
)

// MaxVersions is the number of versions kept: older ones are forgotten.
const MaxVersions = 50

// maxAttempts bounds the compare-and-set attempts of one record against other writers.
const maxAttempts = 20

// Kinds of history.
const (
	KindConfig = "config"
	KindRules  = "rules"
)

// ErrVersionNotFound: the history holds no such version (never written, or forgotten).
var ErrVersionNotFound = errors.New("version not found")

// Version is one entry of a history, as GET .../history lists it.
type Version struct {
	Version   int64     `json:"version"`
	ChangedAt time.Time `json:"changedAt"`
	// ChangedBy is the API key's name; empty for the state found before the first
	// change through the API (written by kubectl or GitOps, say).
	ChangedBy string `json:"changedBy"`
	Summary   string `json:"summary"`
}

// entry is a version as the head holds it: where its state is.
type entry struct {
	Version
	Payload string `json:"payload"`
	Chunks  int    `json:"chunks"`
}

// head is the control document listing a history's versions, newest last.
type head struct {
	Kind      string  `json:"kind"`
	Latest    int64   `json:"latest"`
	Entries   []entry `json:"entries"`
	UpdatedAt int64   `json:"updatedAt"`
}

// Log is the history of one kind, for every index.
type Log struct {
	kind  string
	docs  *controlindex.Store
	es    *elasticsearch.TypedClient
	clock func() time.Time
}

// New returns the history of kind on client; clock tells the versions' times.
func New(client *elasticsearch.TypedClient, kind string, clock func() time.Time) *Log {
	if clock == nil {
		clock = time.Now
	}
	return &Log{kind: kind, docs: controlindex.NewStore(client), es: client, clock: clock}
}

// Change is one write to record: the state it left, who wrote it and what it did.
type Change struct {
	By      string
	Summary string
	State   any
	// Before is the state before the write, kept as version 1 when the history is
	// empty, so that the first change through the API can be undone too; nil keeps
	// none.
	Before any
}

func (l *Log) headID() string { return "history." + l.kind }

// Empty reports whether names' history holds no version yet: a writer whose state
// before is costly to read reads it only then.
func (l *Log) Empty(ctx context.Context, names esnames.Index) (bool, error) {
	_, v, err := controlindex.Read[head](ctx, l.docs, names, l.headID())
	return !v.Found, err
}

// Record adds c as the newest version of names' history, and returns its number.
func (l *Log) Record(ctx context.Context, names esnames.Index, c Change) (int64, error) {
	now := l.clock().UTC()
	after, err := l.writePayload(ctx, names, c.State)
	if err != nil {
		return 0, err
	}
	var first *entry // written once, whatever the attempts
	for attempt := 0; attempt < maxAttempts; attempt++ {
		h, v, err := controlindex.Read[head](ctx, l.docs, names, l.headID())
		if err != nil {
			return 0, err
		}
		if !v.Found && c.Before != nil {
			if first == nil {
				e, err := l.firstEntry(ctx, names, c.Before, now)
				if err != nil {
					return 0, err
				}
				first = &e
			}
			h.Entries, h.Latest = []entry{*first}, 1
		}
		h.Latest++
		h.Entries = append(h.Entries, entry{Version: Version{Version: h.Latest, ChangedAt: now, ChangedBy: c.By, Summary: c.Summary},
			Payload: after.Payload, Chunks: after.Chunks})
		kept, dropped := trim(h.Entries)
		h.Kind, h.Entries, h.UpdatedAt = l.headID(), kept, now.UnixMilli()
		_, err = l.docs.Put(ctx, names.Control(), l.headID(), v, h)
		if errors.Is(err, es.ErrConflict) {
			continue
		}
		if err != nil {
			return 0, err
		}
		l.deletePayloads(ctx, names, dropped)
		return h.Latest, nil
	}
	return 0, fmt.Errorf("%w: the %s history of %s kept changing", es.ErrUnavailable, l.kind, names.Stem())
}

// firstEntry records the state before the first change as version 1.
func (l *Log) firstEntry(ctx context.Context, names esnames.Index, before any, now time.Time) (entry, error) {
	e, err := l.writePayload(ctx, names, before)
	if err != nil {
		return entry{}, err
	}
	e.Version = Version{Version: 1, ChangedAt: now, Summary: "as it was before the first change through the API"}
	return e, nil
}

// trim keeps the last MaxVersions entries, and returns the others.
func trim(entries []entry) (kept, dropped []entry) {
	if len(entries) <= MaxVersions {
		return entries, nil
	}
	cut := len(entries) - MaxVersions
	return entries[cut:], entries[:cut]
}

// List returns the versions of names' history, newest first; none before the first
// change through the API.
func (l *Log) List(ctx context.Context, names esnames.Index) ([]Version, error) {
	h, _, err := controlindex.Read[head](ctx, l.docs, names, l.headID())
	if err != nil {
		return nil, err
	}
	out := make([]Version, 0, len(h.Entries))
	for i := len(h.Entries) - 1; i >= 0; i-- {
		out = append(out, h.Entries[i].Version)
	}
	return out, nil
}

// State decodes the state of version n into into; ErrVersionNotFound when the history
// does not hold it.
func (l *Log) State(ctx context.Context, names esnames.Index, n int64, into any) (Version, error) {
	h, _, err := controlindex.Read[head](ctx, l.docs, names, l.headID())
	if err != nil {
		return Version{}, err
	}
	for _, e := range h.Entries {
		if e.Version.Version == n {
			return e.Version, l.readPayload(ctx, names, e, into)
		}
	}
	return Version{}, fmt.Errorf("%w: the %s history holds versions %s", ErrVersionNotFound, l.kind, span(h.Entries))
}

// span names the versions entries hold, for a refusal.
func span(entries []entry) string {
	if len(entries) == 0 {
		return "none yet"
	}
	return fmt.Sprintf("%d to %d", entries[0].Version.Version, entries[len(entries)-1].Version.Version)
}

// newPayloadID names a payload no writer can name again.
func newPayloadID(kind string) string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "history." + kind + "." + hex.EncodeToString(b)
}
