package search

import (
	"time"

	"github.com/aislehq/aisle/internal/merch"
)

// Option configures a Service.
type Option func(*options)

type options struct {
	clock func() time.Time
}

// WithClock tells the time rules' validity windows are compared with (default
// time.Now): tests move it instead of waiting.
func WithClock(clock func() time.Time) Option {
	return func(o *options) { o.clock = clock }
}

// Rules returns the merchandising rules service searches apply (internal/merch decides
// what they change in a search: merch.Service.ForSearch).
func (s *Service) Rules() *merch.Service { return s.rules }
