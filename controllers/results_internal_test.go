package controllers

import (
	"testing"
	"time"
)

func TestResultsRequeueAtTheSoonestAsk(t *testing.T) {
	for _, tc := range []struct {
		name string
		asks []time.Duration
		want time.Duration
	}{
		{"no step asks: no requeue", nil, 0},
		{"one ask", []time.Duration{time.Minute}, time.Minute},
		{"a rebuild's poll before the records refresh", []time.Duration{time.Minute, 2 * time.Second}, 2 * time.Second},
		{"the soonest whatever the order", []time.Duration{2 * time.Second, time.Minute}, 2 * time.Second},
		{"a step that asks nothing leaves the others' ask", []time.Duration{time.Minute, 0}, time.Minute},
		{"nothing first, then an ask", []time.Duration{0, time.Minute}, time.Minute},
		{"a negative ask is none", []time.Duration{-time.Second, time.Minute}, time.Minute},
	} {
		var r Results
		for _, d := range tc.asks {
			r = r.Requeue(d)
		}
		if got := r.Result().RequeueAfter; got != tc.want {
			t.Errorf("%s: RequeueAfter = %v, want %v", tc.name, got, tc.want)
		}
	}
}
