package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/conflicts"

	"github.com/aislehq/aisle/internal/catalog/wait"
	"github.com/aislehq/aisle/internal/controlindex"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
)

// Idempotency keys: the first request with a key creates "idem.<key>" (op_type=create)
// holding the hash of its body and a lease; when its write ends it stores the outcome.
// Concurrent repeats wait for that outcome; a repeat after the owner's lease ran out (a
// crash) takes the claim over by compare-and-set. Keys live Config.IdempotencyTTL.

const kindIdem = "idem"

// Outcome is what a keyed request answered: a receipt (202) or a version conflict (409).
type Outcome struct {
	Status  int      `json:"status"`
	Receipt *Receipt `json:"receipt,omitempty"`
	Error   string   `json:"error,omitempty"`
}

func (o *Outcome) result() (Receipt, error) {
	if o.Status == http.StatusConflict {
		return Receipt{}, ErrVersionConflict
	}
	if o.Receipt == nil {
		return Receipt{}, fmt.Errorf("idempotency record without a receipt")
	}
	return *o.Receipt, nil
}

// outcomeOf decides whether a result is final and worth repeating: receipts and version
// conflicts are; failures the client may retry are not.
func outcomeOf(r Receipt, err error) (Outcome, bool) {
	switch {
	case err == nil:
		return Outcome{Status: http.StatusAccepted, Receipt: &r}, true
	case errors.Is(err, ErrVersionConflict):
		return Outcome{Status: http.StatusConflict, Error: ErrVersionConflict.Error()}, true
	}
	return Outcome{}, false
}

type idemDoc struct {
	Kind      string   `json:"kind"`
	Hash      string   `json:"hash"`
	CreatedAt int64    `json:"createdAt"`
	Deadline  int64    `json:"deadline"`
	Outcome   *Outcome `json:"outcome,omitempty"`
}

// keyClaim is either a finished outcome to repeat or the claim this request now owns.
type keyClaim struct {
	outcome *Outcome
	doc     idemDoc
	v       controlindex.Versioned
}

// idemLease bounds the owner of a key: its wait for a fence plus its write.
func (s *Service) idemLease() time.Duration { return s.cfg.WriteLease + s.cfg.FenceLease }

func (s *Service) claimKey(ctx context.Context, names esnames.Index, key, hash string) (keyClaim, error) {
	id := kindIdem + "." + key
	var claim keyClaim
	err := wait.For(ctx, s.idemLease()+5*time.Second, func() error {
		var err error
		claim, err = s.tryClaim(ctx, names, id, hash)
		return err
	}, ErrBusy, es.ErrConflict)
	if errors.Is(err, es.ErrConflict) {
		err = ErrBusy
	}
	return claim, err
}

// tryClaim makes one attempt; ErrBusy means another request with the key is running.
// Most keys are new: the claim is created first, and the key read only when it exists.
func (s *Service) tryClaim(ctx context.Context, names esnames.Index, id, hash string) (keyClaim, error) {
	now := s.cfg.Now()
	fresh := idemDoc{Kind: kindIdem, Hash: hash, CreatedAt: millis(now), Deadline: millis(now.Add(s.idemLease()))}
	if err := s.docs.Ensure(ctx, names.Control()); err != nil {
		return keyClaim{}, err
	}
	nv, err := s.docs.Put(ctx, names.Control(), id, controlindex.Versioned{}, fresh)
	if err == nil {
		return keyClaim{doc: fresh, v: nv}, nil
	}
	if !errors.Is(err, es.ErrConflict) {
		return keyClaim{}, err
	}
	return s.claimExisting(ctx, names, id, fresh)
}

// claimExisting settles on a key that exists: its outcome to repeat, or a claim taken
// over by compare-and-set (or created again, when it vanished meanwhile).
func (s *Service) claimExisting(ctx context.Context, names esnames.Index, id string, fresh idemDoc) (keyClaim, error) {
	v, err := s.docs.Get(ctx, names.Control(), id)
	if err != nil {
		return keyClaim{}, err
	}
	if v.Found {
		var d idemDoc
		if err := json.Unmarshal(v.Src, &d); err != nil {
			return keyClaim{}, fmt.Errorf("decoding idempotency record %s: %w", id, err)
		}
		var outcome *Outcome
		if fresh, outcome, err = decideKey(d, fresh, s.cfg.IdempotencyTTL); err != nil || outcome != nil {
			return keyClaim{outcome: outcome}, err
		}
	}
	nv, err := s.docs.Put(ctx, names.Control(), id, v, fresh)
	if err != nil {
		return keyClaim{}, err
	}
	return keyClaim{doc: fresh, v: nv}, nil
}

// decideKey is what a request with claim fresh does about the stored key d: repeat its
// outcome, refuse (another body, ErrIdempotencyMismatch; its owner still running,
// ErrBusy), or claim it: afresh when d expired, keeping d's creation time when d's
// owner crashed.
func decideKey(d, fresh idemDoc, ttl time.Duration) (idemDoc, *Outcome, error) {
	now := fresh.CreatedAt
	switch {
	case d.CreatedAt+ttl.Milliseconds() <= now:
		return fresh, nil, nil
	case d.Hash != fresh.Hash:
		return fresh, nil, ErrIdempotencyMismatch
	case d.Outcome != nil:
		return fresh, d.Outcome, nil
	case d.Deadline > now:
		return fresh, nil, ErrBusy
	}
	fresh.CreatedAt = d.CreatedAt
	return fresh, nil, nil
}

// recordKey stores the outcome; losing the claim meanwhile (a takeover) is logged away.
func (s *Service) recordKey(ctx context.Context, names esnames.Index, key string, c keyClaim, oc Outcome) {
	c.doc.Outcome = &oc
	_, _ = s.docs.Put(ctx, names.Control(), kindIdem+"."+key, c.v, c.doc)
}

// releaseKey gives up a claim after a failure the client may retry.
func (s *Service) releaseKey(ctx context.Context, names esnames.Index, key string, c keyClaim) {
	_ = s.docs.Delete(ctx, names.Control(), kindIdem+"."+key, c.v)
}

// ExpireKeys deletes the idempotency keys of control index control older than their
// TTL (the janitor's step).
func (s *Service) ExpireKeys(ctx context.Context, control string, now time.Time) error {
	before := strconv.FormatInt(millis(now.Add(-s.cfg.IdempotencyTTL)), 10)
	q := &types.Query{Bool: &types.BoolQuery{Filter: []types.Query{
		{Term: map[string]types.TermQuery{"kind": {Value: kindIdem}}},
		{Range: map[string]types.RangeQuery{"createdAt": types.NumberRangeQuery{Lt: floatPtr(before)}}},
	}}}
	_, err := s.es.DeleteByQuery(control).Query(q).Conflicts(conflicts.Proceed).Do(ctx)
	if err := es.Classify(err); err != nil && !errors.Is(err, es.ErrNotFound) {
		return fmt.Errorf("expiring idempotency keys in %s: %w", control, err)
	}
	return nil
}

func floatPtr(v string) *types.Float64 {
	f, _ := strconv.ParseFloat(v, 64)
	x := types.Float64(f)
	return &x
}
