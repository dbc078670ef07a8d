package events_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aislehq/aisle/internal/events"
)

var today = time.Date(2026, 11, 24, 15, 4, 5, 0, time.UTC)

func TestParsePeriod(t *testing.T) {
	cases := []struct {
		from, to, wantFrom, wantTo, err string
	}{
		{"", "", "2026-10-26", "2026-11-24", ""},
		{"", "2026-03-31", "2026-03-02", "2026-03-31", ""},
		{"2026-03-01", "2026-03-01", "2026-03-01", "2026-03-01", ""},
		{"2025-01-01", "2026-02-05", "2025-01-01", "2026-02-05", ""},
		{"2025-01-01", "2026-02-06", "", "", "from and to must be at most 400 days apart"},
		{"2026-03-02", "2026-03-01", "", "", "from (2026-03-02) must not be after to (2026-03-01)"},
		{"2026-3-1", "", "", "", "from must be a date written YYYY-MM-DD"},
		{"", "yesterday", "", "", "to must be a date written YYYY-MM-DD"},
		{"2026-02-30", "", "", "", "from must be a date written YYYY-MM-DD"},
	}
	for _, c := range cases {
		p, err := events.ParsePeriod(c.from, c.to, today)
		if c.err != "" {
			if !errors.Is(err, events.ErrBadParameter) || !strings.HasSuffix(err.Error(), c.err) {
				t.Errorf("ParsePeriod(%q, %q) = %v, want %q", c.from, c.to, err, c.err)
			}
			continue
		}
		if err != nil || p.From.Format(time.DateOnly) != c.wantFrom || p.To.Format(time.DateOnly) != c.wantTo {
			t.Errorf("ParsePeriod(%q, %q) = %v..%v, %v; want %s..%s", c.from, c.to, p.From, p.To, err, c.wantFrom, c.wantTo)
		}
	}
}

func TestParseLimit(t *testing.T) {
	for in, want := range map[string]int{"": 10, "1": 1, "100": 100, "0": -1, "101": -1, "ten": -1, "+5": 5, "5.0": -1} {
		got, err := events.ParseLimit(in, 10, 100)
		if want < 0 {
			if !errors.Is(err, events.ErrBadParameter) {
				t.Errorf("ParseLimit(%q) = %d, %v; want an error", in, got, err)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("ParseLimit(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
}

// FuzzParsePeriod checks that any from and to either fail with ErrBadParameter or give a
// period of 1 to 401 whole days.
func FuzzParsePeriod(f *testing.F) {
	f.Add("", "")
	f.Add("2026-01-01", "2026-12-31")
	f.Add("0000-01-01", "9999-12-31")
	f.Add("2026-02-29", "2026-13-01")
	f.Fuzz(func(t *testing.T, from, to string) {
		p, err := events.ParsePeriod(from, to, today)
		if err != nil {
			if !errors.Is(err, events.ErrBadParameter) {
				t.Fatalf("ParsePeriod(%q, %q): error without ErrBadParameter: %v", from, to, err)
			}
			return
		}
		if d := p.Days(); d < 1 || d > events.MaxStatsDays+1 {
			t.Fatalf("ParsePeriod(%q, %q) gave %d days", from, to, d)
		}
		if p.From.Hour() != 0 || p.From.Location() != time.UTC {
			t.Fatalf("ParsePeriod(%q, %q) does not start at midnight UTC: %v", from, to, p.From)
		}
	})
}

// FuzzParseLimit checks that any limit either fails with ErrBadParameter or is in range.
func FuzzParseLimit(f *testing.F) {
	for _, s := range []string{"", "1", "50", "51", "-1", "0x10", "9999999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := events.ParseLimit(s, 10, 50)
		if err != nil {
			if !errors.Is(err, events.ErrBadParameter) {
				t.Fatalf("ParseLimit(%q): %v", s, err)
			}
			return
		}
		if n < 1 || n > 50 {
			t.Fatalf("ParseLimit(%q) = %d", s, n)
		}
	})
}
