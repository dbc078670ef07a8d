package events

import (
	"errors"
	"fmt"
	"strconv"
	"time"
)

// ErrBadParameter: a query parameter of a reading endpoint (stats, Bought together) is
// malformed or out of range. The message names the parameter.
var ErrBadParameter = errors.New("invalid parameter")

const (
	dateLayout = "2006-01-02"
	// DefaultStatsDays is the period of GET /events/stats without from and to: the last
	// 30 days, today included.
	DefaultStatsDays = 30
	// MaxStatsDays is the longest period one request may ask for, in days between from
	// and to.
	MaxStatsDays = 400
)

// Period is a span of whole UTC days, both ends included.
type Period struct {
	From, To time.Time // midnight UTC
}

// Start is the first millisecond of the period; End the first after it.
func (p Period) Start() time.Time { return p.From }
func (p Period) End() time.Time   { return p.To.AddDate(0, 0, 1) }

// Days is how many days the period holds.
func (p Period) Days() int { return int(p.End().Sub(p.From) / (24 * time.Hour)) }

// ParsePeriod reads the from and to parameters (YYYY-MM-DD, either may be empty): to
// defaults to today (UTC), from to 29 days before to; from must not be after to, and
// they are at most MaxStatsDays apart.
func ParsePeriod(from, to string, now time.Time) (Period, error) {
	today := now.UTC().Truncate(24 * time.Hour)
	end, err := parseDay("to", to, today)
	if err != nil {
		return Period{}, err
	}
	start, err := parseDay("from", from, end.AddDate(0, 0, 1-DefaultStatsDays))
	if err != nil {
		return Period{}, err
	}
	if start.After(end) {
		return Period{}, fmt.Errorf("%w: from (%s) must not be after to (%s)", ErrBadParameter, start.Format(dateLayout), end.Format(dateLayout))
	}
	if end.Sub(start) > MaxStatsDays*24*time.Hour {
		return Period{}, fmt.Errorf("%w: from and to must be at most %d days apart", ErrBadParameter, MaxStatsDays)
	}
	return Period{From: start, To: end}, nil
}

func parseDay(name, s string, def time.Time) (time.Time, error) {
	if s == "" {
		return def, nil
	}
	t, err := time.Parse(dateLayout, s)
	if err != nil || len(s) != len(dateLayout) {
		return time.Time{}, fmt.Errorf("%w: %s must be a date written YYYY-MM-DD", ErrBadParameter, name)
	}
	return t, nil
}

// ParseLimit reads a limit parameter: def when empty, else an integer from 1 to max.
func ParseLimit(s string, def, max int) (int, error) {
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > max {
		return 0, fmt.Errorf("%w: limit must be an integer from 1 to %d", ErrBadParameter, max)
	}
	return n, nil
}
