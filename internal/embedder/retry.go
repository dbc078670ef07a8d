package embedder

import (
	"net/http"
	"strconv"
	"time"
)

// Retryable: the server is busy (429) or failing (5xx); any other status is its answer.
func Retryable(status int) bool {
	return status == http.StatusTooManyRequests || status >= 500
}

// Delay is the wait before retry attempt+1: a server's Retry-After in seconds when it
// names one (bounded by max), else exponential backoff base·2^attempt, bounded by max,
// with full jitter (jitter in [0,1)) so that replicas retrying together spread out.
func Delay(attempt int, base, max time.Duration, retryAfter string, jitter float64) time.Duration {
	if s, err := strconv.Atoi(retryAfter); err == nil && s >= 0 {
		return min(time.Duration(s)*time.Second, max)
	}
	d := base
	for i := 0; i < attempt && d < max; i++ {
		d *= 2
	}
	d = min(d, max)
	// Half fixed, half random: never a zero wait, still spread.
	return d/2 + time.Duration(jitter*float64(d/2))
}
