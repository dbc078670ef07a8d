package controllers

import (
	"context"
	"errors"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/log"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/esnames"
)

// Settings rebuilds run as background jobs of the operator, one per SearchIndex,
// driven by reconciles: when the settings hash of the spec differs from the one of the
// physical index behind the alias, a job rebuilds with internal/catalog.Rebuild (which
// loses no write). Each reconcile copies the job's progress into status.rebuild. A
// spec whose hash differs from the running job's (a newer PUT /config) cancels the job
// as abandoned, which deletes its target, and starts another.
//
// The jobs live in the leader's memory, but the rebuild does not: its checkpoint (target
// index, settings hash, the mark noted at the start, the cursor of the last copied page,
// documents done) is in the index's control index, under a lease. After an operator
// restart or a leader change, the next reconcile starts a job that takes the checkpoint
// over once its lease has lapsed (at once when the old leader stopped cleanly) and
// resumes the copy after the cursor, in the same target; status.rebuild keeps its start
// time and documents done, and a RebuildResumed event says so. A checkpoint for other
// settings, or whose target is gone, is dropped and the rebuild starts afresh.

// rebuildPoll is how often a SearchIndex is reconciled while its rebuild runs.
const rebuildPoll = 2 * time.Second

// rebuildRetry is how long a failed rebuild waits before the next attempt.
const rebuildRetry = 30 * time.Second

type rebuildJob struct {
	hash   string
	cancel context.CancelCauseFunc
	mu     sync.Mutex
	status searchv1alpha1.RebuildStatus
	done   bool
}

func (j *rebuildJob) snapshot() (searchv1alpha1.RebuildStatus, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return *j.status.DeepCopy(), j.done
}

// rebuilds holds the running jobs of the operator.
type rebuilds struct {
	mu   sync.Mutex
	root context.Context
	jobs map[types.NamespacedName]*rebuildJob
}

// Start keeps the manager's context as the jobs' parent, so they end with the manager;
// it runs as a leader-elected runnable.
func (b *rebuilds) Start(ctx context.Context) error {
	b.mu.Lock()
	b.root = ctx
	b.mu.Unlock()
	<-ctx.Done()
	return nil
}

func (b *rebuilds) get(key types.NamespacedName) *rebuildJob {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.jobs[key]
}

// stop abandons the job of key, if any.
func (b *rebuilds) stop(key types.NamespacedName) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if j := b.jobs[key]; j != nil {
		j.cancel(catalog.ErrRebuildAbandoned)
		delete(b.jobs, key)
	}
}

// start runs run as the job of key for settings hash, abandoning any other job. Its
// status starts from prev when prev is the same rebuild running (before a restart),
// so that progress does not seem to drop while the job takes it over.
func (b *rebuilds) start(key types.NamespacedName, hash string, prev *searchv1alpha1.RebuildStatus, generation int64, run func(context.Context, *rebuildJob) error) *rebuildJob {
	b.mu.Lock()
	defer b.mu.Unlock()
	if old := b.jobs[key]; old != nil {
		old.cancel(catalog.ErrRebuildAbandoned)
	}
	parent := b.root
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithCancelCause(parent)
	j := &rebuildJob{hash: hash, cancel: cancel, status: initialStatus(prev, generation)}
	if b.jobs == nil {
		b.jobs = map[types.NamespacedName]*rebuildJob{}
	}
	b.jobs[key] = j
	go func() {
		err := run(ctx, j)
		j.mu.Lock()
		defer j.mu.Unlock()
		end := metav1.Now()
		j.done, j.status.CompletionTime = true, &end
		switch {
		case err == nil:
			j.status.State = searchv1alpha1.RebuildSucceeded
		case errors.Is(context.Cause(ctx), catalog.ErrRebuildAbandoned):
			j.status.State, j.status.Error = searchv1alpha1.RebuildFailed, "superseded by newer settings"
		default:
			j.status.State, j.status.Error = searchv1alpha1.RebuildFailed, err.Error()
		}
	}()
	return j
}

// initialStatus is the status of a job taking up the rebuild of generation.
func initialStatus(prev *searchv1alpha1.RebuildStatus, generation int64) searchv1alpha1.RebuildStatus {
	if prev != nil && prev.State == searchv1alpha1.RebuildRunning && prev.Generation == generation {
		return *prev.DeepCopy()
	}
	now := metav1.Now()
	return searchv1alpha1.RebuildStatus{State: searchv1alpha1.RebuildRunning, Generation: generation, StartTime: &now}
}

// reconcileRebuild starts, supersedes or reports the rebuild of si, given the settings
// hash the spec wants and the one of the physical index behind its alias. It returns
// how soon to look again (0: no rebuild in progress).
func (r *SearchIndexReconciler) reconcileRebuild(ctx context.Context, si *searchv1alpha1.SearchIndex, names esnames.Index, want, physicalHash string) time.Duration {
	if r.Catalog == nil || want == "" {
		return 0
	}
	key := types.NamespacedName{Namespace: si.Namespace, Name: si.Name}
	job := r.rebuilds.get(key)
	if want == physicalHash {
		if job != nil {
			if st, done := job.snapshot(); done && job.hash == want {
				si.Status.Rebuild = &st
			}
			r.rebuilds.stop(key)
		}
		return 0
	}
	if job != nil && job.hash == want {
		st, done := job.snapshot()
		si.Status.Rebuild = &st
		if !done || st.CompletionTime == nil || time.Since(st.CompletionTime.Time) < rebuildRetry {
			return rebuildPoll
		}
	}
	log.FromContext(ctx).Info("starting a settings rebuild", "generation", si.Generation, "settingsHash", want)
	job = r.rebuilds.start(key, want, si.Status.Rebuild, si.Generation, r.runRebuild(ctx, si, names))
	st, _ := job.snapshot()
	si.Status.Rebuild = &st
	r.Recorder.Eventf(si, nil, "Normal", "RebuildStarted", "Rebuild", "rebuilding for generation %d", si.Generation)
	return rebuildPoll
}

// runRebuild is the body of the job rebuilding si: it runs catalog.Rebuild and copies
// its progress into the job's status.
func (r *SearchIndexReconciler) runRebuild(ctx context.Context, si *searchv1alpha1.SearchIndex, names esnames.Index) func(context.Context, *rebuildJob) error {
	logger := log.FromContext(ctx)
	obj := si.DeepCopy()
	target := catalog.Target{Names: names, Settings: *si.Spec.Settings.DeepCopy()}
	return func(ctx context.Context, j *rebuildJob) error {
		announced := false
		_, err := r.Catalog.Rebuild(ctx, target, func(p catalog.Progress) {
			if p.Resumed && !announced {
				announced = true
				logger.Info("resuming the settings rebuild", "targetIndex", p.Target, "documentsDone", p.Done)
				r.Recorder.Eventf(obj, nil, "Normal", "RebuildResumed", "Rebuild",
					"resumed the rebuild into %s at %d of %d documents", p.Target, p.Done, p.Total)
			}
			started := metav1.NewTime(p.Started)
			j.mu.Lock()
			j.status.DocumentsDone, j.status.DocumentsTotal, j.status.TargetIndex = p.Done, p.Total, p.Target
			j.status.StartTime = &started
			j.mu.Unlock()
		})
		if errors.Is(err, catalog.ErrSourceMoved) {
			logger.Info("catalog replaced during the rebuild; the next reconcile decides again")
		}
		return err
	}
}
