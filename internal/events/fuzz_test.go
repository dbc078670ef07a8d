package events

import (
	"encoding/json"
	"errors"
	"testing"
	"time"
)

// The decoders and validators take any bytes a client sends: they must never panic,
// must refuse with a reason or accept, and what they accept must encode as a document.

var fuzzNow = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

func FuzzValidate(f *testing.F) {
	for _, s := range []string{
		`{"type": "view", "objectID": "p1"}`,
		`{"type": "click", "objectID": "p1", "position": 3, "query": "Red SHOE"}`,
		`{"type": "click", "objectID": "p1", "position": 1, "list": "together", "from": "p2"}`,
		`{"type": "addToCart", "currency": "eur", "items": [{"objectID": "p1", "quantity": 2, "price": 9.5}]}`,
		`{"type": "purchase", "orderID": "o1", "items": [{"objectID": "p1"}], "timestamp": 1763985600000}`,
		`{"type": "cancel", "orderID": "o1"}`,
		`{"type": "view", "objectID": "p1", "extra": true}`,
		`[1, 2]`, `null`, `{"type": 5}`,
	} {
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, raw []byte, fromServer bool) {
		src := FromBrowser
		if fromServer {
			src = FromServer
		}
		ev, reason := Validate(raw, src, fuzzNow)
		checkOutcome(t, ev, reason)
	})
}

func FuzzValidateOrder(f *testing.F) {
	for _, s := range []string{
		`{"orderID": "o1", "timestamp": 1763985600000, "items": [{"objectID": "p1", "price": 1}], "currency": "USD"}`,
		`{"orderID": "o1", "items": []}`,
		`{"orderID": "", "timestamp": 1.5}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		ev, reason := ValidateOrder(raw, fuzzNow)
		checkOutcome(t, ev, reason)
	})
}

func FuzzDecodeEvents(f *testing.F) {
	for _, s := range []string{`{"events": [{"type": "view"}]}`, `{"events": []}`, `{"events": {}}`, `[]`, `{"events": [1,2,3]} x`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		evs, err := DecodeEvents(body, MaxBrowserEvents)
		checkList(t, body, len(evs), err, MaxBrowserEvents)
	})
}

func FuzzDecodeOrders(f *testing.F) {
	for _, s := range []string{`{"orders": [{"orderID": "o1"}]}`, `{"orders": []}`, `{"orders": null}`, `{"events": []}`, `null`, "{\"orders\": [\"\xff\"]}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		orders, err := DecodeOrders(body)
		checkList(t, body, len(orders), err, MaxPastOrders)
	})
}

// checkList: a body is a 400 (ErrBadBody) or a list of 1 to limit items.
func checkList(t *testing.T, body []byte, n int, err error, limit int) {
	t.Helper()
	switch {
	case err != nil && !errors.Is(err, ErrBadBody):
		t.Fatalf("%q: an error that is not a 400: %v", body, err)
	case err == nil && (n < 1 || n > limit):
		t.Fatalf("%q: decoded %d items, outside 1..%d", body, n, limit)
	}
}

func checkOutcome(t *testing.T, ev Event, reason string) {
	t.Helper()
	if reason != "" {
		return
	}
	if _, err := json.Marshal(ev.Doc); err != nil {
		t.Fatalf("an accepted event does not encode: %v", err)
	}
	d := ev.Doc
	if d.Timestamp > fuzzNow.Add(MaxClockSkew).UnixMilli() || d.Timestamp < fuzzNow.Add(-MaxAge).UnixMilli() {
		t.Fatalf("accepted timestamp %d outside the window", d.Timestamp)
	}
	if len(d.Items) > MaxItems || (d.Type == Purchase || d.Type == AddToCart) && len(d.Items) == 0 {
		t.Fatalf("accepted %d items for a %s", len(d.Items), d.Type)
	}
	if d.Type == Click && (d.Position < 1 || d.Position > MaxPosition) {
		t.Fatalf("accepted position %d", d.Position)
	}
}
