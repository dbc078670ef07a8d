package events

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"

	"github.com/aislehq/aisle/internal/es"
)

// Browser is what a browser request tells about its sender. IP and UserAgent are only
// hashed (the daily visitor of browser orders), never stored.
type Browser struct {
	IP, UserAgent string
	Country       string // ISO 3166-1 alpha-2 or ""
	Device        string // see Device
	Site          string // host of the page's Origin
	// Drop is why the events are not recorded (see DropReason); "" records them.
	Drop string
}

// Batch is one request of events.
type Batch struct {
	Target
	Source  Source
	Events  []json.RawMessage
	Browser Browser // FromBrowser only
}

// Record validates and stores a batch: one refused event never refuses the others.
// When it returns without error every accepted event is in the backend.
func (s *Service) Record(ctx context.Context, b Batch) (Accepted, error) {
	now := s.clock()
	valid, rejected := validateAll(b.Events, func(r json.RawMessage) (Event, string) { return Validate(r, b.Source, now) })
	out := Accepted{Accepted: len(valid), Rejected: rejected}
	if b.Source == FromBrowser && b.Browser.Drop != "" {
		return out, s.notRecorded(ctx, b, len(valid))
	}
	var others, purchases, cancels []indexed
	for _, v := range valid {
		b.Browser.stamp(&v.ev.Doc, b.Source)
		switch v.ev.Doc.Type {
		case Purchase:
			purchases = append(purchases, v)
		case Cancel:
			cancels = append(cancels, v)
		default:
			others = append(others, v)
		}
	}
	acts, err := s.placeOrders(ctx, b, purchases)
	if err != nil {
		return Accepted{}, err
	}
	for _, v := range others {
		a, ok, err := s.eventAction(ctx, b.Target, "", v.ev.Doc)
		if err != nil {
			return Accepted{}, err
		}
		if ok {
			acts = append(acts, a)
		}
	}
	if _, err := s.bulk(ctx, acts); err != nil {
		return Accepted{}, err
	}
	refused, err := s.cancelAll(ctx, b.Target, cancels)
	if err != nil {
		return Accepted{}, err
	}
	out.Accepted -= len(refused)
	out.Rejected = append(out.Rejected, refused...)
	slices.SortFunc(out.Rejected, func(a, b Rejected) int { return a.Index - b.Index })
	return out, nil
}

// stamp adds what the request says about the browser; server events carry none of it.
func (br Browser) stamp(d *EventDoc, src Source) {
	if src != FromBrowser {
		return
	}
	d.Country, d.Device, d.Site = br.Country, br.Device, br.Site
}

// notRecorded counts dropped events in one document per request and reason.
func (s *Service) notRecorded(ctx context.Context, b Batch, n int) error {
	if n == 0 {
		return nil
	}
	doc := EventDoc{Type: NotRecorded, Timestamp: s.clock().UnixMilli(), Source: FromBrowser,
		Reason: b.Browser.Drop, Count: int64(n), Site: b.Browser.Site}
	a, _, err := s.eventAction(ctx, b.Target, "", doc)
	if err != nil {
		return err
	}
	_, err = s.bulk(ctx, []action{a})
	return err
}

// itemError classifies a failed _bulk item.
func itemError(status int, cause *es.BulkReason) error {
	if cause == nil && status < 300 {
		return nil
	}
	reason := http.StatusText(status)
	if cause != nil {
		reason = cause.Type + ": " + cause.Reason
	}
	if status >= 500 || status == http.StatusTooManyRequests {
		return fmt.Errorf("%w: %w: %s", ErrUnavailable, es.ErrUnavailable, reason)
	}
	if status == http.StatusConflict {
		return fmt.Errorf("%w: %s", es.ErrConflict, reason)
	}
	return fmt.Errorf("writing an event: %s", reason)
}
