package events

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/optype"

	"github.com/aislehq/aisle/internal/controlindex"
	"github.com/aislehq/aisle/internal/es"
)

// Control document kinds and IDs, in the SearchIndex's control index; retention finds
// them by kind and createdAt.
const (
	KindOrderKey = "eventsOrderKey"
	KindSalt     = "eventsSalt"
	KindVisitor  = "eventsVisitor"

	OrderKeyID = "events.orderkey"
)

// SaltID is the ID of the salt of day (UTC).
func SaltID(day time.Time) string { return "events.salt." + day.UTC().Format(time.DateOnly) }

// VisitorID is the ID of a visitor's browser-order counter on day (UTC).
func VisitorID(day time.Time, visitor string) string {
	return "events.visitor." + day.UTC().Format(time.DateOnly) + "." + visitor
}

// secretBytes is the size of order keys and salts.
const secretBytes = 32

// controlDoc is an events control document. Secret is a base64 order key or salt;
// Count is a visitor's counted browser orders of the day.
type controlDoc struct {
	Kind      string `json:"kind"`
	CreatedAt int64  `json:"createdAt"`
	Secret    string `json:"secret,omitempty"`
	Count     int    `json:"count,omitempty"`
}

// versionedDoc is a control document with what a compare-and-set needs.
type versionedDoc struct {
	found     bool
	seq, term int64
	doc       controlDoc
}

func (s *Service) readControl(ctx context.Context, t Target, id string) (versionedDoc, error) {
	if err := s.ensureControl(ctx, t); err != nil {
		return versionedDoc{}, err
	}
	res, err := s.es.Get(t.Names.Control(), id).Realtime(true).Do(ctx)
	if err != nil {
		return versionedDoc{}, fmt.Errorf("reading control document %s: %w", id, es.Classify(err))
	}
	if !res.Found || res.SeqNo_ == nil || res.PrimaryTerm_ == nil {
		return versionedDoc{}, nil
	}
	v := versionedDoc{found: true, seq: *res.SeqNo_, term: *res.PrimaryTerm_}
	if err := json.Unmarshal(res.Source_, &v.doc); err != nil {
		return versionedDoc{}, fmt.Errorf("decoding control document %s: %w", id, err)
	}
	return v, nil
}

// writeControl creates the document when prev was not found, else replaces it only if
// unchanged since; es.ErrConflict means another replica got there first.
func (s *Service) writeControl(ctx context.Context, t Target, id string, prev versionedDoc, doc controlDoc) error {
	raw, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	req := s.es.Index(t.Names.Control()).Id(id).Raw(bytes.NewReader(raw))
	if prev.found {
		req = req.IfSeqNo(strconv.FormatInt(prev.seq, 10)).IfPrimaryTerm(strconv.FormatInt(prev.term, 10))
	} else {
		req = req.OpType(optype.Create)
	}
	if _, err := req.Do(ctx); err != nil {
		return fmt.Errorf("writing control document %s: %w", id, es.Classify(err))
	}
	return nil
}

func (s *Service) ensureControl(ctx context.Context, t Target) error {
	key := t.UID + "\x00" + t.Names.Control()
	if _, ok := s.ensured.Load(key); ok {
		return nil
	}
	if err := controlindex.Create(ctx, s.es, t.Names.Control()); err != nil {
		return err
	}
	s.ensured.Store(key, struct{}{})
	return nil
}

// secret returns the secret of control document id, creating it with a random one if
// there is none: every replica ends up with the one that was written first.
func (s *Service) secret(ctx context.Context, t Target, id, kind string) ([]byte, error) {
	cacheKey := t.UID + "\x00" + id
	if v, ok := s.secrets.Load(cacheKey); ok {
		return v.([]byte), nil
	}
	for attempt := 0; attempt < 3; attempt++ {
		v, err := s.readControl(ctx, t, id)
		if err != nil {
			return nil, err
		}
		if v.found {
			b, err := base64.StdEncoding.DecodeString(v.doc.Secret)
			if err != nil || len(b) < 16 {
				return nil, fmt.Errorf("control document %s holds no valid secret", id)
			}
			s.secrets.Store(cacheKey, b)
			return b, nil
		}
		fresh := make([]byte, secretBytes)
		_, _ = rand.Read(fresh) // crypto/rand never fails on supported platforms
		doc := controlDoc{Kind: kind, CreatedAt: s.clock().UnixMilli(), Secret: base64.StdEncoding.EncodeToString(fresh)}
		if err := s.writeControl(ctx, t, id, v, doc); err != nil && !errors.Is(err, es.ErrConflict) {
			return nil, err
		}
	}
	return nil, fmt.Errorf("%w: control document %s keeps changing", es.ErrUnavailable, id)
}

// OrderKey is the keyed hash of an order ID under the SearchIndex's order key: the ID
// of its order document and purchase event.
func (s *Service) orderKey(ctx context.Context, t Target, orderID string) (string, error) {
	key, err := s.secret(ctx, t, OrderKeyID, KindOrderKey)
	if err != nil {
		return "", err
	}
	return keyedHash(key, orderID), nil
}

// visitor is the hash of a browser's network address and user agent under the day's
// salt.
func (s *Service) visitor(ctx context.Context, t Target, day time.Time, ip, userAgent string) (string, error) {
	salt, err := s.secret(ctx, t, SaltID(day), KindSalt)
	if err != nil {
		return "", err
	}
	return keyedHash(salt, ip+"\x00"+userAgent), nil
}

func keyedHash(key []byte, s string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(s))
	return hex.EncodeToString(m.Sum(nil))
}

// MaxBrowserOrdersPerDay is how many browser orders of one visitor count a day.
const MaxBrowserOrdersPerDay = 3

// reserveOrder takes one of the visitor's counted orders of the day, by compare-and-set
// so that replicas together never pass the cap; false when none is left.
func (s *Service) reserveOrder(ctx context.Context, t Target, id string) (bool, error) {
	return s.bumpVisitor(ctx, t, id, 1)
}

// releaseOrder gives back a reservation whose order turned out to be a resend.
func (s *Service) releaseOrder(ctx context.Context, t Target, id string) error {
	_, err := s.bumpVisitor(ctx, t, id, -1)
	return err
}

func (s *Service) bumpVisitor(ctx context.Context, t Target, id string, delta int) (bool, error) {
	for attempt := 0; attempt < 50; attempt++ {
		v, err := s.readControl(ctx, t, id)
		if err != nil {
			return false, err
		}
		next := v.doc
		next.Count += delta
		if next.Count > MaxBrowserOrdersPerDay || next.Count < 0 {
			return false, nil
		}
		if !v.found {
			next = controlDoc{Kind: KindVisitor, CreatedAt: s.clock().UnixMilli(), Count: next.Count}
		}
		err = s.writeControl(ctx, t, id, v, next)
		if err == nil {
			return true, nil
		}
		if !errors.Is(err, es.ErrConflict) {
			return false, err
		}
	}
	return false, fmt.Errorf("%w: visitor counter %s keeps changing", es.ErrUnavailable, id)
}
