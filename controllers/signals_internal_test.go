package controllers

import (
	"testing"
	"time"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

func TestSignalsRefreshHourlyAndAtOnceOnASettingsChange(t *testing.T) {
	var runs dueRuns[signalsRun]
	t0 := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	claim := func(s searchv1alpha1.IndexSettings, now time.Time) bool {
		due := func(last signalsRun, ran bool) bool { return signalsDue(last, ran, s, now, time.Hour) }
		return runs.claim("a", due, signalsRun{at: now, settings: learningKey(s)})
	}
	off := searchv1alpha1.IndexSettings{}
	on := searchv1alpha1.IndexSettings{EventRanking: &searchv1alpha1.EventRanking{Enabled: true}}
	tuned := searchv1alpha1.IndexSettings{EventRanking: &searchv1alpha1.EventRanking{Enabled: true, HalfLifeDays: 3}}
	steps := []struct {
		name string
		s    searchv1alpha1.IndexSettings
		at   time.Duration
		want bool
	}{
		{"off: nothing to compute", off, 0, false},
		{"turned on", on, time.Minute, true},
		{"within the hour", on, 30 * time.Minute, false},
		{"half-life changed", tuned, 31 * time.Minute, true},
		{"within the hour again", tuned, 90 * time.Minute, false},
		{"an hour later", tuned, 91 * time.Minute, true},
	}
	for _, s := range steps {
		if got := claim(s.s, t0.Add(s.at)); got != s.want {
			t.Errorf("%s: claim = %v, want %v", s.name, got, s.want)
		}
	}
	runs.release("a")
	if !claim(tuned, t0.Add(92*time.Minute)) {
		t.Error("a released refresh is not due again")
	}
}
