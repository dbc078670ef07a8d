package controllers

import (
	"testing"
	"time"
)

func TestRetentionRunsOncePerInterval(t *testing.T) {
	var runs dueRuns[time.Time]
	t0 := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	due := func(now time.Time) func(time.Time, bool) bool {
		return func(last time.Time, ran bool) bool { return retentionDue(last, ran, now) }
	}
	steps := []struct {
		stem string
		at   time.Duration
		want bool
	}{
		{"a", 0, true},
		{"b", time.Minute, true},
		{"a", 59 * time.Minute, false},
		{"a", time.Hour, true},
		{"a", time.Hour + time.Second, false},
	}
	for _, s := range steps {
		if got := runs.claim(s.stem, due(t0.Add(s.at)), t0.Add(s.at)); got != s.want {
			t.Errorf("claim(%s, +%v) = %v, want %v", s.stem, s.at, got, s.want)
		}
	}
	runs.release("a")
	if at := t0.Add(time.Hour + 2*time.Second); !runs.claim("a", due(at), at) {
		t.Error("a released run is not due again")
	}
}
