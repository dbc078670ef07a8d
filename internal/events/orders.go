package events

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/aislehq/aisle/internal/es"
)

// order is a purchase on its way to the order index.
type order struct {
	indexed
	key      string
	doc      OrderDoc
	reserved string // the visitor counter a browser order took a slot of
}

// placeOrders writes purchases to the order index with op_type=create, so a resent
// order is counted once, and returns the actions writing their purchase events under
// the same ID. For a resend the event takes the first order's time, so it lands on the
// same document; creating it again is harmless, and repairs a crash between the two
// writes.
func (s *Service) placeOrders(ctx context.Context, b Batch, purchases []indexed) ([]action, error) {
	if len(purchases) == 0 {
		return nil, nil
	}
	orders, err := s.prepareOrders(ctx, b, purchases)
	if err != nil {
		return nil, err
	}
	statuses, err := s.createOrders(ctx, b.Target, orders)
	if err != nil {
		return nil, err
	}
	var acts []action
	for i, o := range orders {
		doc := o.ev.Doc
		if statuses[i] == http.StatusConflict {
			if err := s.resent(ctx, b.Target, o, &doc); err != nil {
				return nil, err
			}
		}
		a, ok, err := s.eventAction(ctx, b.Target, o.key, doc)
		if err != nil {
			return nil, err
		}
		if ok {
			acts = append(acts, a)
		}
	}
	return acts, nil
}

// prepareOrders keys each purchase and decides whether it counts for Bought together.
func (s *Service) prepareOrders(ctx context.Context, b Batch, purchases []indexed) ([]order, error) {
	orders := make([]order, len(purchases))
	for i, p := range purchases {
		key, err := s.orderKey(ctx, b.Target, p.ev.OrderID)
		if err != nil {
			return nil, unavailable(err)
		}
		o := order{indexed: p, key: key, doc: OrderDoc{
			Timestamp: p.ev.Doc.Timestamp, Products: OrderProducts(p.ev.Doc.Items), Source: b.Source, Counts: true,
		}}
		if b.Source == FromBrowser {
			if err := s.browserOrder(ctx, b, &o); err != nil {
				return nil, unavailable(err)
			}
		}
		orders[i] = o
	}
	return orders, nil
}

// browserOrder counts a browser order only with countBrowserOrders on, and then for at
// most three a day per visitor.
func (s *Service) browserOrder(ctx context.Context, b Batch, o *order) error {
	o.doc.Counts = false
	if !b.CountBrowserOrders {
		return nil
	}
	day := s.clock()
	visitor, err := s.visitor(ctx, b.Target, day, b.Browser.IP, b.Browser.UserAgent)
	if err != nil {
		return err
	}
	o.doc.Visitor = visitor
	id := VisitorID(day, visitor)
	ok, err := s.reserveOrder(ctx, b.Target, id)
	if err != nil {
		return err
	}
	if ok {
		o.doc.Counts, o.reserved = true, id
	}
	return nil
}

// createOrders writes the order documents in one _bulk; a 409 is a resend.
func (s *Service) createOrders(ctx context.Context, t Target, orders []order) ([]int, error) {
	name := t.Names.Orders()
	if err := s.ensureIndex(ctx, t, name, OrderMapping); err != nil {
		return nil, err
	}
	acts := make([]action, len(orders))
	for i, o := range orders {
		acts[i] = action{index: name, id: o.key, create: true, doc: o.doc}
	}
	return s.bulk(ctx, acts)
}

// resent aligns a resent purchase's event with the order first recorded, and gives
// back the visitor slot the resend took.
func (s *Service) resent(ctx context.Context, t Target, o order, doc *EventDoc) error {
	if o.reserved != "" {
		if err := s.releaseOrder(ctx, t, o.reserved); err != nil {
			return unavailable(err)
		}
	}
	first, _, err := s.readOrder(ctx, t, o.key)
	if err != nil {
		return err
	}
	if first != nil {
		doc.Timestamp, doc.Cancelled = first.Timestamp, first.Cancelled
	}
	return nil
}

// readOrder reads an order document in real time; nil when there is none.
func (s *Service) readOrder(ctx context.Context, t Target, key string) (*OrderDoc, versionedDoc, error) {
	var doc OrderDoc
	v, err := s.readDoc(ctx, t.Names.Orders(), key, &doc)
	if err != nil || !v.found {
		return nil, v, err
	}
	return &doc, v, nil
}

// readDoc reads a document in real time into dst, with its version.
func (s *Service) readDoc(ctx context.Context, index, id string, dst any) (versionedDoc, error) {
	res, err := s.es.Get(index, id).Realtime(true).Do(ctx)
	if err := es.Classify(err); errors.Is(err, es.ErrNotFound) {
		return versionedDoc{}, nil
	} else if err != nil {
		return versionedDoc{}, unavailable(fmt.Errorf("reading %s/%s: %w", index, id, err))
	}
	if !res.Found || res.SeqNo_ == nil || res.PrimaryTerm_ == nil {
		return versionedDoc{}, nil
	}
	if err := json.Unmarshal(res.Source_, dst); err != nil {
		return versionedDoc{}, fmt.Errorf("decoding %s/%s: %w", index, id, err)
	}
	return versionedDoc{found: true, seq: *res.SeqNo_, term: *res.PrimaryTerm_}, nil
}

// replaceDoc writes doc over a document only if unchanged since v was read.
func (s *Service) replaceDoc(ctx context.Context, index, id string, v versionedDoc, doc any) error {
	raw, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	_, err = s.es.Index(index).Id(id).Raw(bytes.NewReader(raw)).
		IfSeqNo(strconv.FormatInt(v.seq, 10)).IfPrimaryTerm(strconv.FormatInt(v.term, 10)).Do(ctx)
	if err := es.Classify(err); err != nil {
		return unavailable(fmt.Errorf("writing %s/%s: %w", index, id, err))
	}
	return nil
}

// RecordPastOrders imports orders up to 400 days old: to Bought together and the order
// counts, not to the events. A resent order is accepted and counted once.
func (s *Service) RecordPastOrders(ctx context.Context, t Target, raw []json.RawMessage) (Accepted, error) {
	now := s.clock()
	valid, rejected := validateAll(raw, func(r json.RawMessage) (Event, string) { return ValidateOrder(r, now) })
	orders := make([]order, len(valid))
	for i, v := range valid {
		key, err := s.orderKey(ctx, t, v.ev.OrderID)
		if err != nil {
			return Accepted{}, unavailable(err)
		}
		orders[i] = order{indexed: v, key: key, doc: OrderDoc{
			Timestamp: v.ev.Doc.Timestamp, Products: OrderProducts(v.ev.Doc.Items), Source: FromPast, Counts: true,
		}}
	}
	if len(orders) > 0 {
		if _, err := s.createOrders(ctx, t, orders); err != nil {
			return Accepted{}, err
		}
	}
	return Accepted{Accepted: len(valid), Rejected: rejected}, nil
}
