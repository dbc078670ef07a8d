package apiserver

import (
	"crypto/sha256"
	"math"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/time/rate"
)

// PublicLimits are the public search rate limits of one apiserver replica.
type PublicLimits struct {
	// PerVisitor is the requests a minute one visitor (network address and user agent)
	// may send to one index (default 240).
	PerVisitor int
	// PerIndex is the requests a minute all visitors together may send to one index
	// (default 6,000).
	PerIndex int
	// Visitors bounds the visitors remembered at once (default 100,000); the least
	// recently seen are forgotten first, which only ever gives them a fresh allowance.
	Visitors int
	// Clock tells the time the buckets refill by (default time.Now); tests stop it, so
	// that what they count does not depend on how fast they send.
	Clock func() time.Time
}

func (l PublicLimits) withDefaults() PublicLimits {
	if l.PerVisitor <= 0 {
		l.PerVisitor = 240
	}
	if l.PerIndex <= 0 {
		l.PerIndex = 6000
	}
	if l.Visitors <= 0 {
		l.Visitors = 100_000
	}
	if l.Clock == nil {
		l.Clock = time.Now
	}
	return l
}

// buckets is a bounded set of token buckets (golang.org/x/time/rate), one per key, each
// holding a minute's allowance as its burst and refilling it evenly over the minute: a
// visitor can send a minute's requests at once and then one every 60/n seconds. The
// least recently seen keys are forgotten first, which only gives them a fresh allowance.
type buckets struct {
	perMinute int
	clock     func() time.Time
	cache     *lru.Cache[[32]byte, *rate.Limiter]
}

func newBuckets(perMinute, size int, clock func() time.Time) *buckets {
	cache, err := lru.New[[32]byte, *rate.Limiter](size)
	if err != nil {
		panic(err) // only for a size below 1, which the defaults rule out
	}
	return &buckets{perMinute: perMinute, clock: clock, cache: cache}
}

// take takes one request of key, or says how long to wait for the next.
func (b *buckets) take(key [32]byte) (bool, time.Duration) {
	l, ok := b.cache.Get(key)
	if !ok {
		l = perMinute(b.perMinute)
		if prev, found, _ := b.cache.PeekOrAdd(key, l); found {
			l = prev
		}
	}
	return take(l, b.clock())
}

// limiters are the public search limits: per visitor and index, and per index.
type limiters struct {
	visitors *buckets
	indexes  *buckets
}

func newLimiters(cfg PublicLimits) *limiters {
	cfg = cfg.withDefaults()
	return &limiters{
		visitors: newBuckets(cfg.PerVisitor, cfg.Visitors, cfg.Clock),
		indexes:  newBuckets(cfg.PerIndex, cfg.Visitors, cfg.Clock),
	}
}

func perMinute(n int) *rate.Limiter {
	return rate.NewLimiter(rate.Limit(float64(n)/60), n)
}

// visitorKey identifies a visitor of an index by a hash of the network address and user
// agent: the address itself is never kept.
func visitorKey(publicID, ip, userAgent string) [32]byte {
	return sha256.Sum256([]byte(publicID + "\x00" + ip + "\x00" + userAgent))
}

// allow takes one request of a visitor to an index, or says how long to wait.
func (l *limiters) allow(publicID string, visitor [32]byte) (bool, time.Duration) {
	if ok, wait := l.visitors.take(visitor); !ok {
		return false, wait
	}
	return l.indexes.take(sha256.Sum256([]byte(publicID)))
}

// take consumes a token if one is there at now; otherwise it reports the wait for the
// next.
func take(l *rate.Limiter, now time.Time) (bool, time.Duration) {
	r := l.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// retryAfter renders a wait as whole seconds, at least 1.
func retryAfter(d time.Duration) string {
	return strconv.Itoa(int(math.Max(1, math.Ceil(d.Seconds()))))
}

// EventLimits are the rate limits of the event endpoints of one apiserver replica, apart
// from the search limits: events never count as searches.
type EventLimits struct {
	// PerVisitor is the event requests a minute one visitor may send to one public ID
	// (default 600).
	PerVisitor int
	// PerKey is the event requests a minute one API key may send (default 600).
	PerKey int
	// Visitors bounds the visitors and keys remembered at once (default 100,000).
	Visitors int
	// Clock tells the time the buckets refill by (default time.Now).
	Clock func() time.Time
}

func (l EventLimits) withDefaults() EventLimits {
	if l.PerVisitor <= 0 {
		l.PerVisitor = 600
	}
	if l.PerKey <= 0 {
		l.PerKey = 600
	}
	if l.Visitors <= 0 {
		l.Visitors = 100_000
	}
	if l.Clock == nil {
		l.Clock = time.Now
	}
	return l
}

// eventLimiters are the event limits: per visitor and public ID, and per API key.
type eventLimiters struct {
	visitors *buckets
	keys     *buckets
}

func newEventLimiters(cfg EventLimits) *eventLimiters {
	cfg = cfg.withDefaults()
	return &eventLimiters{
		visitors: newBuckets(cfg.PerVisitor, cfg.Visitors, cfg.Clock),
		keys:     newBuckets(cfg.PerKey, cfg.Visitors, cfg.Clock),
	}
}

// limited answers 429 with Retry-After: a bucket is empty for wait.
func limited(c *fiber.Ctx, wait time.Duration) error {
	c.Set(fiber.HeaderRetryAfter, retryAfter(wait))
	return errRateLimited
}
