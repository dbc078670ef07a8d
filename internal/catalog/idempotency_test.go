package catalog

import (
	"errors"
	"testing"
	"time"
)

func TestDecideKey(t *testing.T) {
	ttl := time.Hour
	fresh := idemDoc{Hash: "h", CreatedAt: 10_000_000, Deadline: 10_060_000}
	done := &Outcome{Status: 202, Receipt: &Receipt{AcceptedRevision: 3}}
	cases := []struct {
		name        string
		stored      idemDoc
		wantCreated int64
		wantOutcome *Outcome
		wantErr     error
	}{
		{"expired: claimed afresh", idemDoc{Hash: "other", CreatedAt: 10_000_000 - ttl.Milliseconds()}, fresh.CreatedAt, nil, nil},
		{"another body", idemDoc{Hash: "other", CreatedAt: 9_999_000, Outcome: done}, 0, nil, ErrIdempotencyMismatch},
		{"finished: its outcome", idemDoc{Hash: "h", CreatedAt: 9_999_000, Outcome: done}, 0, done, nil},
		{"owner still running", idemDoc{Hash: "h", CreatedAt: 9_999_000, Deadline: 10_000_001}, 0, nil, ErrBusy},
		{"owner crashed: taken over", idemDoc{Hash: "h", CreatedAt: 9_999_000, Deadline: 10_000_000}, 9_999_000, nil, nil},
	}
	for _, c := range cases {
		got, outcome, err := decideKey(c.stored, fresh, ttl)
		if !errors.Is(err, c.wantErr) || outcome != c.wantOutcome {
			t.Errorf("%s: got %v, %v; want %v, %v", c.name, outcome, err, c.wantOutcome, c.wantErr)
		}
		if c.wantErr == nil && c.wantOutcome == nil && (got.CreatedAt != c.wantCreated || got.Deadline != fresh.Deadline) {
			t.Errorf("%s: claim %+v, want created at %d", c.name, got, c.wantCreated)
		}
	}
}
