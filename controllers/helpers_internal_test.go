package controllers

import (
	"errors"
	"fmt"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/es"
)

func TestNewPublicID(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		id, err := newPublicID()
		if err != nil {
			t.Fatal(err)
		}
		if len(id) != 32 || seen[id] {
			t.Fatalf("bad or repeated id %q", id)
		}
		for _, c := range id {
			if (c < 'a' || c > 'z') && (c < '2' || c > '7') {
				t.Fatalf("id %q has %q, not lowercase base32", id, c)
			}
		}
		seen[id] = true
	}
}

func TestBackendReadiness(t *testing.T) {
	down := backendReadiness(fmt.Errorf("creating: %w", fmt.Errorf("%w: refused", es.ErrUnavailable)))
	if down.reason != searchv1alpha1.ReasonBackendUnavailable {
		t.Errorf("unavailable backend gives %q", down.reason)
	}
	if r := backendReadiness(errors.New("mapper_parsing_exception")); r.reason != searchv1alpha1.ReasonBackendError {
		t.Errorf("refused request gives %q", r.reason)
	}
}

func TestRetryConflicts(t *testing.T) {
	conflict := apierrors.NewConflict(schema.GroupResource{Resource: "searchindexes"}, "x", errors.New("stale"))
	res, err := retryConflicts(ctrl.Result{}, fmt.Errorf("updating status: %w", conflict))
	if err != nil || res.RequeueAfter != conflictRetry {
		t.Errorf("conflict: %v %v", res, err)
	}
	other := errors.New("boom")
	if _, err := retryConflicts(ctrl.Result{}, other); !errors.Is(err, other) {
		t.Errorf("other error became %v", err)
	}
}

func TestInitialRebuildStatus(t *testing.T) {
	running := &searchv1alpha1.RebuildStatus{State: searchv1alpha1.RebuildRunning, Generation: 4,
		TargetIndex: "idx-3", DocumentsDone: 7000, DocumentsTotal: 60000}
	if st := initialStatus(running, 4, testNow); st.DocumentsDone != 7000 || st.TargetIndex != "idx-3" {
		t.Errorf("taking up the running rebuild of a dead leader dropped its progress: %+v", st)
	}
	for name, prev := range map[string]*searchv1alpha1.RebuildStatus{
		"none":             nil,
		"older generation": {State: searchv1alpha1.RebuildRunning, Generation: 3, DocumentsDone: 7000},
		"failed":           {State: searchv1alpha1.RebuildFailed, Generation: 4, DocumentsDone: 7000},
	} {
		st := initialStatus(prev, 4, testNow)
		if st.State != searchv1alpha1.RebuildRunning || st.Generation != 4 || st.DocumentsDone != 0 || st.StartTime == nil {
			t.Errorf("%s: %+v", name, st)
		}
	}
}

func TestDecideJob(t *testing.T) {
	now := time.Now()
	running := func(hash string) *jobView { return &jobView{hash: hash} }
	ended := func(hash string, ago time.Duration) *jobView {
		return &jobView{hash: hash, done: true, completed: now.Add(-ago)}
	}
	for name, c := range map[string]struct {
		physical string
		job      *jobView
		want     jobStep
	}{
		"wanted settings live, no job":                  {"new", nil, jobIdle},
		"other settings live, no job":                   {"old", nil, jobStart},
		"job running":                                   {"old", running("new"), jobReport},
		"alias moved, job still tidying up":             {"new", running("new"), jobReport},
		"job ended with the wanted settings live":       {"new", ended("new", time.Second), jobFinish},
		"job failed a moment ago":                       {"old", ended("new", time.Second), jobReport},
		"job failed long ago":                           {"old", ended("new", time.Hour), jobStart},
		"newer settings than the job's":                 {"old", running("older"), jobStart},
		"settings put back to the live ones mid-build":  {"new", running("other"), jobAbandon},
		"settings put back after the other job stopped": {"new", ended("other", time.Second), jobAbandon},
	} {
		if got := decideJob("new", c.physical, c.job, now); got != c.want {
			t.Errorf("%s: got step %d, want %d", name, got, c.want)
		}
	}
}

func TestEndedElsewhere(t *testing.T) {
	running := &searchv1alpha1.RebuildStatus{State: searchv1alpha1.RebuildRunning, Generation: 4,
		TargetIndex: "idx-3", DocumentsDone: 60000, DocumentsTotal: 60000}
	failed := &searchv1alpha1.RebuildStatus{State: searchv1alpha1.RebuildFailed, Generation: 4, Error: "boom"}
	for name, c := range map[string]struct {
		prev       *searchv1alpha1.RebuildStatus
		physical   string
		generation int64
		wantState  searchv1alpha1.RebuildState
		wantError  string
	}{
		"its target is live: the dead leader's swap went through": {running, "idx-3", 4, searchv1alpha1.RebuildSucceeded, ""},
		"another index is live: its settings were put back":       {running, "idx-2", 5, searchv1alpha1.RebuildFailed, supersededMessage},
		"no target noted yet": {&searchv1alpha1.RebuildStatus{State: searchv1alpha1.RebuildRunning, Generation: 4},
			"idx-2", 5, searchv1alpha1.RebuildFailed, supersededMessage},
		"already succeeded": {&searchv1alpha1.RebuildStatus{State: searchv1alpha1.RebuildSucceeded, TargetIndex: "idx-3"},
			"idx-3", 4, searchv1alpha1.RebuildSucceeded, ""},
		"failed for the settings still wanted": {failed, "idx-3", 4, searchv1alpha1.RebuildFailed, "boom"},
		"failed for settings since put back":   {failed, "idx-2", 5, searchv1alpha1.RebuildFailed, supersededMessage},
	} {
		st := endedElsewhere(c.prev, c.physical, c.generation, testNow)
		if st.State != c.wantState || st.Error != c.wantError {
			t.Errorf("%s: got %s %q, want %s %q", name, st.State, st.Error, c.wantState, c.wantError)
		}
		if c.prev.State == searchv1alpha1.RebuildRunning && (st.CompletionTime == nil || c.prev.CompletionTime != nil) {
			t.Errorf("%s: the end time is not set on a copy: %+v", name, st)
		}
	}
	if endedElsewhere(nil, "idx-3", 4, testNow) != nil {
		t.Error("no rebuild became one")
	}
	if failed.Error != "boom" {
		t.Error("the status was changed in place")
	}
}

// After a rebuild failed and the settings were put back, GET /config no longer shows the
// failure as if the settings in force had failed (issue 15, item 7): the job is
// abandoned and its status says it was superseded.
func TestAFailedRebuildIsSupersededWhenTheSettingsArePutBack(t *testing.T) {
	failed := &searchv1alpha1.RebuildStatus{State: searchv1alpha1.RebuildFailed, Generation: 2,
		Error: `failed to parse field [m] of type [long]`}
	st := supersededStatus(failed, 3, testNow)
	if st.State != searchv1alpha1.RebuildFailed || st.Error != supersededMessage {
		t.Errorf("got %s %q, want Failed %q", st.State, st.Error, supersededMessage)
	}
}

// testNow is the clock of the status steps' tests.
var testNow = metav1.NewTime(time.Date(2026, 12, 2, 5, 0, 0, 0, time.UTC))
