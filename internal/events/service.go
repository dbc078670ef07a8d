package events

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/elastic/go-elasticsearch/v8"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
)

// ErrUnavailable: the backend is down or overloaded, so events (orders in particular)
// cannot be recorded now; nothing was acknowledged and resending is safe (503).
var ErrUnavailable = errors.New("events cannot be recorded for a moment; resending is safe")

// Service records events and orders.
type Service struct {
	es      *elasticsearch.TypedClient
	clock   func() time.Time
	ensured sync.Map // UID + index name -> struct{}: created with its mapping
	secrets sync.Map // UID + control document ID -> []byte: order keys and salts
}

// Config configures the service.
type Config struct {
	// Clock tells the time (default time.Now); tests move it instead of sleeping.
	Clock func() time.Time
}

// New returns a service writing through client.
func New(client *elasticsearch.TypedClient, cfg Config) *Service {
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	return &Service{es: client, clock: cfg.Clock}
}

// Target is the SearchIndex events are recorded for. UID tells a SearchIndex from one
// deleted and created again under the same name, whose indices and keys are new.
type Target struct {
	Names esnames.Index
	UID   string
	// CountBrowserOrders is the index setting countBrowserOrders.
	CountBrowserOrders bool
}

// indexed is a valid event and its position in the request.
type indexed struct {
	at int
	ev Event
}

// validateAll splits raw events into valid ones and refusals.
func validateAll(raw []json.RawMessage, check func(json.RawMessage) (Event, string)) ([]indexed, []Rejected) {
	valid := make([]indexed, 0, len(raw))
	rejected := []Rejected{}
	for i, r := range raw {
		ev, reason := check(r)
		if reason != "" {
			rejected = append(rejected, Rejected{Index: i, Reason: reason})
			continue
		}
		valid = append(valid, indexed{at: i, ev: ev})
	}
	return valid, rejected
}

// action is one create or index of a _bulk; an empty id lets the backend choose.
type action struct {
	index, id string
	create    bool
	doc       any
}

// bulk sends actions in one _bulk and returns each item's status. A failed item other
// than a create's conflict (409) fails the call: as unavailable when the backend
// refused for load or failure, so the client resends.
func (s *Service) bulk(ctx context.Context, acts []action) ([]int, error) {
	if len(acts) == 0 {
		return nil, nil
	}
	body, err := encodeBulk(acts)
	if err != nil {
		return nil, err
	}
	res, err := s.es.Bulk().Raw(bytes.NewReader(body)).Perform(ctx) //nolint:bodyclose // BulkItems closes it
	items, err := es.BulkItems(len(acts), res, err)
	if err != nil {
		return nil, unavailable(fmt.Errorf("writing %d events: %w", len(acts), err))
	}
	statuses := make([]int, len(acts))
	for i, r := range items {
		statuses[i] = r.Status
		if err := itemError(r.Status, r.Error); err != nil && !(acts[i].create && r.Status == http.StatusConflict) {
			return nil, err
		}
	}
	return statuses, nil
}

func encodeBulk(acts []action) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, a := range acts {
		meta := map[string]string{"_index": a.index}
		if a.id != "" {
			meta["_id"] = a.id
		}
		op := "index"
		if a.create {
			op = "create"
		}
		if err := enc.Encode(map[string]any{op: meta}); err != nil {
			return nil, err
		}
		if err := enc.Encode(a.doc); err != nil {
			return nil, fmt.Errorf("encoding an event: %w", err)
		}
	}
	return buf.Bytes(), nil
}

// unavailable marks backend failures as ErrUnavailable; others pass.
func unavailable(err error) error {
	if errors.Is(err, es.ErrUnavailable) {
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return err
}

// ensureIndex creates an event or order index with its mapping once per process and
// SearchIndex, before anything is written to it: a write would otherwise create it
// with a guessed mapping.
func (s *Service) ensureIndex(ctx context.Context, t Target, name, mapping string) error {
	key := t.UID + "\x00" + name
	if _, ok := s.ensured.Load(key); ok {
		return nil
	}
	_, err := s.es.Indices.Create(name).Raw(bytes.NewReader([]byte(mapping))).Do(ctx)
	if err := es.Classify(err); err != nil && !errors.Is(err, es.ErrConflict) {
		return unavailable(fmt.Errorf("creating index %s: %w", name, err))
	}
	s.ensured.Store(key, struct{}{})
	return nil
}

// Kept says whether an event of time ts is still within the Events page's three
// months: retention deletes a monthly index three months after its month ends, so an
// older event is accepted but not written (a day early, to never race the deletion
// and create the index again).
func Kept(ts int64, now time.Time) bool {
	t := time.UnixMilli(ts).UTC()
	month := time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	return now.Before(month.AddDate(0, 4, -1))
}

// eventAction writes doc into the monthly index of its time, ensuring the index; false
// when the event is older than what is kept.
func (s *Service) eventAction(ctx context.Context, t Target, id string, doc EventDoc) (action, bool, error) {
	if !Kept(doc.Timestamp, s.clock()) {
		return action{}, false, nil
	}
	name := t.Names.Events(time.UnixMilli(doc.Timestamp))
	if err := s.ensureIndex(ctx, t, name, EventMapping); err != nil {
		return action{}, false, err
	}
	return action{index: name, id: id, create: id != "", doc: doc}, true, nil
}
