// Package wait holds the timing of the catalog's retries and renewals: jittered
// backoff, sleeping and ticking until a context ends, and retrying while an error is
// one that waiting can clear.
package wait

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// Backoff is a full-jitter exponential delay.
func Backoff(attempt int, base, limit time.Duration) time.Duration {
	d := base << min(attempt, 16)
	if d > limit || d <= 0 {
		d = limit
	}
	return time.Duration(rand.Int64N(int64(d))) + base
}

// Every calls fn every period until ctx ends or fn returns false.
func Every(ctx context.Context, period time.Duration, fn func() bool) {
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if !fn() {
				return
			}
		}
	}
}

// Sleep waits for d, or until ctx ends (its error then).
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// For retries fn while it returns one of the retryable errors, until ctx ends or limit
// passes; it returns fn's last error then.
func For(ctx context.Context, limit time.Duration, fn func() error, retryable ...error) error {
	deadline := time.Now().Add(limit)
	for attempt := 0; ; attempt++ {
		err := fn()
		if err == nil || !isAny(err, retryable) || time.Now().After(deadline) {
			return err
		}
		if err := Sleep(ctx, Backoff(attempt, 5*time.Millisecond, 250*time.Millisecond)); err != nil {
			return err
		}
	}
}

func isAny(err error, targets []error) bool {
	for _, t := range targets {
		if errors.Is(err, t) {
			return true
		}
	}
	return false
}
