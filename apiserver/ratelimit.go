package apiserver

import (
	"crypto/sha256"
	"math"
	"strconv"
	"sync"
	"time"

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

// limiters hands out token buckets (golang.org/x/time/rate): each holds a minute's
// allowance as its burst and refills it evenly over the minute, so a visitor can send
// 240 requests at once and then 4 a second. Visitors live in a bounded LRU; indexes
// are few and live in a map.
type limiters struct {
	cfg      PublicLimits
	visitors *lru.Cache[[32]byte, *rate.Limiter]
	mu       sync.Mutex
	indexes  map[string]*rate.Limiter
}

func newLimiters(cfg PublicLimits) *limiters {
	cfg = cfg.withDefaults()
	visitors, err := lru.New[[32]byte, *rate.Limiter](cfg.Visitors)
	if err != nil {
		panic(err) // only for a size below 1, which withDefaults rules out
	}
	return &limiters{cfg: cfg, visitors: visitors, indexes: map[string]*rate.Limiter{}}
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
	v, ok := l.visitors.Get(visitor)
	if !ok {
		v = perMinute(l.cfg.PerVisitor)
		if prev, found, _ := l.visitors.PeekOrAdd(visitor, v); found {
			v = prev
		}
	}
	now := l.cfg.Clock()
	if ok, wait := take(v, now); !ok {
		return false, wait
	}
	l.mu.Lock()
	idx := l.indexes[publicID]
	if idx == nil {
		idx = perMinute(l.cfg.PerIndex)
		l.indexes[publicID] = idx
	}
	l.mu.Unlock()
	return take(idx, now)
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
