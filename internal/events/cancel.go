package events

import (
	"context"
	"errors"
	"time"

	"github.com/aislehq/aisle/internal/es"
)

// ReasonUnknownOrder refuses a cancel of an order this index never recorded.
const ReasonUnknownOrder = "orderID names no order recorded for this index"

// cancelAll cancels orders: each marks its order and purchase event cancelled, so it
// leaves the order counts, Bought together and revenue, and is recorded as a cancel
// event once. Cancelling a cancelled order again changes nothing.
func (s *Service) cancelAll(ctx context.Context, t Target, cancels []indexed) ([]Rejected, error) {
	var refused []Rejected
	var acts []action
	for _, c := range cancels {
		first, err := s.cancelOrder(ctx, t, c.ev.OrderID)
		if err != nil {
			return nil, err
		}
		if first == nil {
			refused = append(refused, Rejected{Index: c.at, Reason: ReasonUnknownOrder})
			continue
		}
		if !*first {
			continue
		}
		a, ok, err := s.eventAction(ctx, t, "", c.ev.Doc)
		if err != nil {
			return nil, err
		}
		if ok {
			acts = append(acts, a)
		}
	}
	_, err := s.bulk(ctx, acts)
	return refused, err
}

// cancelOrder marks an order and its purchase event cancelled. It reports nil when the
// order is unknown, else whether this call cancelled it (false: it already was).
func (s *Service) cancelOrder(ctx context.Context, t Target, orderID string) (*bool, error) {
	key, err := s.orderKey(ctx, t, orderID)
	if err != nil {
		return nil, unavailable(err)
	}
	for attempt := 0; attempt < 20; attempt++ {
		o, v, err := s.readOrder(ctx, t, key)
		if err != nil || o == nil {
			return nil, err
		}
		first := !o.Cancelled
		if first {
			o.Cancelled = true
			err = s.replaceDoc(ctx, t.Names.Orders(), key, v, o)
		}
		if errors.Is(err, es.ErrConflict) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return &first, s.cancelPurchase(ctx, t, key, o.Timestamp)
	}
	return nil, ErrUnavailable
}

// cancelPurchase marks the purchase event of an order cancelled, if it is kept.
func (s *Service) cancelPurchase(ctx context.Context, t Target, key string, ts int64) error {
	index := t.Names.Events(time.UnixMilli(ts))
	for attempt := 0; attempt < 20; attempt++ {
		var doc EventDoc
		v, err := s.readDoc(ctx, index, key, &doc)
		if err != nil || !v.found || doc.Cancelled {
			return err
		}
		doc.Cancelled = true
		err = s.replaceDoc(ctx, index, key, v, doc)
		if !errors.Is(err, es.ErrConflict) {
			return err
		}
	}
	return ErrUnavailable
}
