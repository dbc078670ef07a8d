package events

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/aislehq/aisle/internal/indexmapping"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/currency"
)

// Limits of one event, from the contract.
const (
	MaxItems       = 1000
	MaxPosition    = 1000
	MaxObjectID    = 512
	MaxOrderID     = 256
	MaxQueryWords  = 8
	MaxAge         = 400 * 24 * time.Hour
	MaxClockSkew   = 5 * time.Minute
	maxQueryLength = 512
)

// wireEvent is an event as sent. Pointers tell absent fields from zero ones; numbers are
// float64 so that a fraction gets the field's own reason rather than a decoder error.
type wireEvent struct {
	Type      *string     `json:"type"`
	Timestamp *float64    `json:"timestamp"`
	ObjectID  *string     `json:"objectID"`
	Position  *float64    `json:"position"`
	Query     *string     `json:"query"`
	List      *string     `json:"list"`
	From      *string     `json:"from"`
	Items     *[]wireItem `json:"items"`
	Currency  *string     `json:"currency"`
	OrderID   *string     `json:"orderID"`
}

type wireItem struct {
	ObjectID *string  `json:"objectID"`
	Quantity *float64 `json:"quantity"`
	Price    *float64 `json:"price"`
}

// Event is a valid event: the document to store, and the order ID of a purchase or a
// cancel, which only ever leaves this process as a keyed hash.
type Event struct {
	Doc     EventDoc
	OrderID string
}

// fieldsOf are the fields each type takes besides type and timestamp.
var fieldsOf = map[Type][]string{
	View:      {indexmapping.ObjectIDField},
	Click:     {indexmapping.ObjectIDField, "position", "query", "list", "from"},
	AddToCart: {"items", "currency"},
	Purchase:  {"orderID", "items", "currency"},
	Cancel:    {"orderID"},
}

// Validate checks one raw event sent by src at now and returns it normalized, or the
// reason it is refused.
func Validate(raw json.RawMessage, src Source, now time.Time) (Event, string) {
	var w wireEvent
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return Event{}, decodeReason("an event", err)
	}
	t, reason := eventType(w.Type, src)
	if reason != "" {
		return Event{}, reason
	}
	if reason := foreignField(w, t); reason != "" {
		return Event{}, reason
	}
	ts, reason := timestamp(w.Timestamp, src, now)
	if reason != "" {
		return Event{}, reason
	}
	ev := Event{Doc: EventDoc{Type: t, Timestamp: ts, Source: src}}
	return ev, fill(&ev, w)
}

func eventType(t *string, src Source) (Type, string) {
	if t == nil {
		return "", "type is required: one of view, click, addToCart, purchase, cancel"
	}
	typ := Type(*t)
	if !slices.Contains(Types, typ) {
		return "", fmt.Sprintf("type %q is not one of view, click, addToCart, purchase, cancel", *t)
	}
	if typ == Cancel && src == FromBrowser {
		return "", "cancel is accepted from servers only"
	}
	return typ, ""
}

// foreignField names a field that belongs to another type of event.
func foreignField(w wireEvent, t Type) string {
	present := map[string]bool{
		indexmapping.ObjectIDField: w.ObjectID != nil, "position": w.Position != nil, "query": w.Query != nil,
		"list": w.List != nil, "from": w.From != nil, "items": w.Items != nil,
		"currency": w.Currency != nil, "orderID": w.OrderID != nil,
	}
	for _, f := range []string{indexmapping.ObjectIDField, "position", "query", "list", "from", "items", "currency", "orderID"} {
		if present[f] && !slices.Contains(fieldsOf[t], f) {
			return fmt.Sprintf("%s is not a field of a %s event", f, t)
		}
	}
	return ""
}

// timestamp checks a sent time (servers only) or takes now.
func timestamp(ts *float64, src Source, now time.Time) (int64, string) {
	if ts == nil {
		return now.UnixMilli(), ""
	}
	if src == FromBrowser {
		return 0, "timestamp is accepted from servers only"
	}
	return PastTimestamp(*ts, now)
}

// PastTimestamp checks a sent time: integer milliseconds, at most five minutes ahead of
// now and at most 400 days before it.
func PastTimestamp(ts float64, now time.Time) (int64, string) {
	if ts != math.Trunc(ts) || math.IsInf(ts, 0) {
		return 0, "timestamp must be an integer number of milliseconds since 1970-01-01 UTC"
	}
	ms := int64(ts)
	switch {
	case ms > now.Add(MaxClockSkew).UnixMilli():
		return 0, "timestamp must not be in the future"
	case ms < now.Add(-MaxAge).UnixMilli():
		return 0, "timestamp must not be older than 400 days"
	}
	return ms, ""
}

func fill(ev *Event, w wireEvent) string {
	d := &ev.Doc
	switch d.Type {
	case View:
		return objectID(&d.ObjectID, w.ObjectID, indexmapping.ObjectIDField)
	case Click:
		return click(d, w)
	case AddToCart:
		return cart(d, w)
	case Purchase:
		if r := orderID(&ev.OrderID, w.OrderID); r != "" {
			return r
		}
		return cart(d, w)
	}
	return orderID(&ev.OrderID, w.OrderID)
}

func objectID(dst *string, v *string, field string) string {
	if v == nil {
		return field + " is required"
	}
	if n := utf8.RuneCountInString(*v); n < 1 || n > MaxObjectID {
		return fmt.Sprintf("%s must be a string of 1 to %d characters", field, MaxObjectID)
	}
	*dst = *v
	return ""
}

func orderID(dst *string, v *string) string {
	if v == nil {
		return "orderID is required"
	}
	if n := utf8.RuneCountInString(*v); n < 1 || n > MaxOrderID {
		return fmt.Sprintf("orderID must be a string of 1 to %d characters", MaxOrderID)
	}
	*dst = *v
	return ""
}

func click(d *EventDoc, w wireEvent) string {
	if r := objectID(&d.ObjectID, w.ObjectID, indexmapping.ObjectIDField); r != "" {
		return r
	}
	if w.Position == nil || *w.Position != math.Trunc(*w.Position) || *w.Position < 1 || *w.Position > MaxPosition {
		return fmt.Sprintf("position must be an integer from 1 to %d", MaxPosition)
	}
	d.Position = int(*w.Position)
	switch {
	case w.Query != nil && w.List != nil:
		return "a click takes either query or list, not both"
	case w.Query != nil && w.From != nil:
		return "from goes with list, not with query"
	case w.Query != nil:
		return clickQuery(d, *w.Query)
	case w.List != nil:
		return clickList(d, w)
	}
	return "a click needs query (a click on a search result) or list and from (a click on a recommendation)"
}

func clickQuery(d *EventDoc, q string) string {
	d.Query = NormalizeQuery(q)
	if d.Query == "" || len(q) > maxQueryLength*4 {
		return "query must be a non-empty search text"
	}
	return ""
}

// NormalizeQuery keeps a clicked query lowercase and at most eight words.
func NormalizeQuery(q string) string {
	words := strings.Fields(strings.ToLower(q))
	if len(words) > MaxQueryWords {
		words = words[:MaxQueryWords]
	}
	out := strings.Join(words, " ")
	if len(out) > maxQueryLength {
		out = strings.ToValidUTF8(out[:maxQueryLength], "")
	}
	return out
}

func clickList(d *EventDoc, w wireEvent) string {
	l := List(*w.List)
	if !slices.Contains(Lists, l) {
		return fmt.Sprintf("list %q is not one of goesWith, similar, together, trending", *w.List)
	}
	d.List = l
	switch {
	case l == Trending && w.From != nil:
		return "from is not a field of a click on trending: the list is no product's"
	case l == Trending:
		return ""
	case w.From == nil:
		return "from is required with list: the product whose list was clicked"
	}
	return objectID(&d.From, w.From, "from")
}

func cart(d *EventDoc, w wireEvent) string {
	if w.Items == nil || len(*w.Items) == 0 || len(*w.Items) > MaxItems {
		return fmt.Sprintf("items must hold 1 to %d items", MaxItems)
	}
	d.Items = make([]Item, len(*w.Items))
	priced := false
	for i, it := range *w.Items {
		if r := item(&d.Items[i], it, i); r != "" {
			return r
		}
		priced = priced || it.Price != nil
	}
	if r := currencyCode(d, w.Currency, priced); r != "" {
		return r
	}
	d.Units, d.Revenue = totals(d.Items)
	if math.IsInf(d.Revenue, 0) {
		return "items: the total of price × quantity is too large"
	}
	return ""
}

func item(dst *Item, it wireItem, i int) string {
	if r := objectID(&dst.ObjectID, it.ObjectID, fmt.Sprintf("items[%d].objectID", i)); r != "" {
		return r
	}
	if q := it.Quantity; q != nil {
		if *q != math.Trunc(*q) || *q < 1 || *q > math.MaxInt32 {
			return fmt.Sprintf("items[%d].quantity must be a positive integer", i)
		}
		dst.Quantity = int64(*q)
	}
	if p := it.Price; p != nil {
		if *p < 0 || math.IsInf(*p, 0) || math.IsNaN(*p) {
			return fmt.Sprintf("items[%d].price must be a number of at least 0", i)
		}
		price := *p
		dst.Price = &price
	}
	return ""
}

func currencyCode(d *EventDoc, c *string, priced bool) string {
	if c == nil {
		if priced {
			return "currency is required when an item has a price: a three-letter ISO 4217 code"
		}
		return ""
	}
	code := strings.ToUpper(*c)
	if len(code) != 3 {
		return fmt.Sprintf("currency %q is not a three-letter ISO 4217 code", *c)
	}
	if _, err := currency.ParseISO(code); err != nil {
		return fmt.Sprintf("currency %q is not a three-letter ISO 4217 code", *c)
	}
	d.Currency = code
	return ""
}

// totals sums units and revenue; an item without a quantity counts once.
func totals(items []Item) (units int64, revenue float64) {
	for _, it := range items {
		q := max(it.Quantity, 1)
		units += q
		if it.Price != nil {
			revenue += *it.Price * float64(q)
		}
	}
	return units, revenue
}

// OrderProducts are an order's first 50 distinct products.
func OrderProducts(items []Item) []string {
	out := make([]string, 0, min(len(items), MaxOrderProducts))
	for _, it := range items {
		if len(out) == MaxOrderProducts {
			break
		}
		if !slices.Contains(out, it.ObjectID) {
			out = append(out, it.ObjectID)
		}
	}
	return out
}

// wireOrder is a past order as sent to POST /past-orders.
type wireOrder struct {
	OrderID   *string     `json:"orderID"`
	Timestamp *float64    `json:"timestamp"`
	Items     *[]wireItem `json:"items"`
	Currency  *string     `json:"currency"`
}

// ValidateOrder checks one past order and returns it as a purchase, or the reason it is
// refused.
func ValidateOrder(raw json.RawMessage, now time.Time) (Event, string) {
	var w wireOrder
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return Event{}, decodeReason("an order", err)
	}
	ev := Event{Doc: EventDoc{Type: Purchase, Source: FromPast}}
	if r := orderID(&ev.OrderID, w.OrderID); r != "" {
		return Event{}, r
	}
	if w.Timestamp == nil {
		return Event{}, "timestamp is required: integer milliseconds since 1970-01-01 UTC"
	}
	ts, r := PastTimestamp(*w.Timestamp, now)
	if r != "" {
		return Event{}, r
	}
	ev.Doc.Timestamp = ts
	return ev, cart(&ev.Doc, wireEvent{Items: w.Items, Currency: w.Currency})
}

// decodeReason words a decoding failure of one event or order: a wrong field names the
// field; anything else says what the value must be.
func decodeReason(what string, err error) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" || strings.HasPrefix(err.Error(), "json: unknown field ") {
		return jsonProblem(err)
	}
	return what + " must be a JSON object"
}
