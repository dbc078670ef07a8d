package transfer

import (
	"net/http"
	"strconv"
	"time"
)

// RetryPolicy decides whether and when a request is sent again. The API says 429 means
// wait Retry-After seconds and 5xx is temporary (retry with backoff); every write the
// importer sends is safe to repeat (a batch holds whole records, a staged batch of the
// same records is a no-op, a second commit returns the first receipt).
type RetryPolicy struct {
	Attempts int           // total attempts, at least 1; 0 means DefaultRetry's
	Base     time.Duration // first backoff; doubled each attempt
	Max      time.Duration // cap of one wait
}

// DefaultRetry tries 8 times, waiting 0.5 s, 1 s, 2 s ... up to 30 s between attempts.
var DefaultRetry = RetryPolicy{Attempts: 8, Base: 500 * time.Millisecond, Max: 30 * time.Second}

// Retryable reports whether an answer with this status is worth sending again.
func Retryable(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusRequestTimeout || status >= 500
}

// Next says whether attempt (1-based) is followed by another, and after how long.
// transportErr is a failure to reach the server or read its answer.
func (p RetryPolicy) Next(attempt, status int, retryAfter string, transportErr bool) (time.Duration, bool) {
	if p.Attempts == 0 {
		p = DefaultRetry
	}
	if attempt >= p.Attempts || (!transportErr && !Retryable(status)) {
		return 0, false
	}
	wait := p.Base << (attempt - 1)
	if wait <= 0 || wait > p.Max {
		wait = p.Max
	}
	if secs, err := strconv.Atoi(retryAfter); err == nil && secs >= 0 {
		// The server's own word beats the guess, within the cap.
		wait = min(time.Duration(secs)*time.Second, p.Max)
	}
	return wait, true
}
