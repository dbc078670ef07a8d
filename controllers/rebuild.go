package controllers

import (
	"context"
	"errors"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/log"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/catalog/rebuild"
	"github.com/aislehq/aisle/internal/esnames"
)

// Settings rebuilds run as background jobs of the operator, one per SearchIndex,
// driven by reconciles: when the settings hash of the spec differs from the one of the
// physical index behind the alias, a job rebuilds with rebuild.Run (which loses no
// write). Each reconcile copies the job's progress into status.rebuild. A spec whose
// hash differs from the running job's (a newer PUT /config) cancels the job as
// abandoned, which deletes its target, and starts another.
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

// supersededMessage is the error of a rebuild whose settings are no longer wanted.
const supersededMessage = "superseded by newer settings"

// view is what decideJob needs of j; nil for no job.
func (j *rebuildJob) view() *jobView {
	if j == nil {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	v := &jobView{hash: j.hash, done: j.done}
	if j.status.CompletionTime != nil {
		v.completed = j.status.CompletionTime.Time
	}
	return v
}

// snapshot is a copy of j's status.
func (j *rebuildJob) snapshot() searchv1alpha1.RebuildStatus {
	j.mu.Lock()
	defer j.mu.Unlock()
	return *j.status.DeepCopy()
}

// rebuilds holds the running jobs of the operator.
type rebuilds struct {
	mu    sync.Mutex
	root  context.Context
	jobs  map[types.NamespacedName]*rebuildJob
	clock clock.PassiveClock // the reconciler's (see SetupWithManager)
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
		j.cancel(rebuild.ErrAbandoned)
		delete(b.jobs, key)
	}
}

// forget drops job, which has ended, unless another job replaced it meanwhile.
func (b *rebuilds) forget(key types.NamespacedName, job *rebuildJob) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.jobs[key] == job {
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
		old.cancel(rebuild.ErrAbandoned)
	}
	parent := b.root
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithCancelCause(parent)
	j := &rebuildJob{hash: hash, cancel: cancel, status: initialStatus(prev, generation, metav1.NewTime(b.clock.Now()))}
	if b.jobs == nil {
		b.jobs = map[types.NamespacedName]*rebuildJob{}
	}
	b.jobs[key] = j
	go func() {
		err := run(ctx, j)
		j.mu.Lock()
		defer j.mu.Unlock()
		end := metav1.NewTime(b.clock.Now())
		j.done, j.status.CompletionTime = true, &end
		switch {
		case err == nil:
			j.status.State = searchv1alpha1.RebuildSucceeded
		case errors.Is(context.Cause(ctx), rebuild.ErrAbandoned):
			j.status.State, j.status.Error = searchv1alpha1.RebuildFailed, supersededMessage
		default:
			j.status.State, j.status.Error = searchv1alpha1.RebuildFailed, err.Error()
		}
	}()
	return j
}

// initialStatus is the status of a job taking up the rebuild of generation.
func initialStatus(prev *searchv1alpha1.RebuildStatus, generation int64, now metav1.Time) searchv1alpha1.RebuildStatus {
	if prev != nil && prev.State == searchv1alpha1.RebuildRunning && prev.Generation == generation {
		return *prev.DeepCopy()
	}
	return searchv1alpha1.RebuildStatus{State: searchv1alpha1.RebuildRunning, Generation: generation, StartTime: &now}
}

// jobStep is what a reconcile does about the rebuild job of a SearchIndex.
type jobStep int

const (
	jobIdle    jobStep = iota // no job, none needed
	jobReport                 // the job for the wanted settings runs or waits to retry: report it
	jobFinish                 // the wanted settings are live and the job has ended: report it, forget it
	jobAbandon                // the wanted settings are live but the job builds others: cancel it
	jobStart                  // start a job for the wanted settings
)

// jobView is what decideJob needs of a job.
type jobView struct {
	hash      string
	done      bool
	completed time.Time
}

// decideJob is the pure step of reconcileRebuild, given the settings hash the spec
// wants, the one of the physical index behind the alias and the job, if any. A job for
// the wanted settings that has not ended is reported even once the alias shows its
// settings: it moves the alias before it tidies up, and forgetting it then would leave
// status.rebuild Running for good.
func decideJob(want, physical string, job *jobView, now time.Time) jobStep {
	switch {
	case job == nil && want == physical:
		return jobIdle
	case job == nil, job.hash != want && want != physical:
		return jobStart
	case job.hash != want:
		return jobAbandon
	case !job.done:
		return jobReport
	case want == physical:
		return jobFinish
	case now.Sub(job.completed) < rebuildRetry:
		return jobReport
	}
	return jobStart
}

// reconcileRebuild starts, supersedes or reports the rebuild of si, given the settings
// hash the spec wants and the one of the physical index behind its alias. It returns
// how soon to look again (0: no rebuild in progress).
func (r *SearchIndexReconciler) reconcileRebuild(ctx context.Context, si *searchv1alpha1.SearchIndex, names esnames.Index, want string, physical IndexState) time.Duration {
	if r.Catalog == nil || want == "" {
		return 0
	}
	key := types.NamespacedName{Namespace: si.Namespace, Name: si.Name}
	job := r.rebuilds.get(key)
	now := r.Options.Clock.Now()
	switch decideJob(want, physical.SettingsHash, job.view(), now) {
	case jobIdle:
		si.Status.Rebuild = endedElsewhere(si.Status.Rebuild, physical.Physical, si.Generation, metav1.NewTime(now))
		return 0
	case jobAbandon:
		r.rebuilds.stop(key)
		si.Status.Rebuild = supersededStatus(si.Status.Rebuild, si.Generation, metav1.NewTime(now))
		return 0
	case jobFinish:
		st := job.snapshot()
		si.Status.Rebuild = &st
		r.rebuilds.forget(key, job)
		return 0
	case jobReport:
		st := job.snapshot()
		si.Status.Rebuild = &st
		return rebuildPoll
	}
	log.FromContext(ctx).Info("starting a settings rebuild", "generation", si.Generation, "settingsHash", want)
	job = r.rebuilds.start(key, want, si.Status.Rebuild, si.Generation, r.runRebuild(ctx, si, names))
	st := job.snapshot()
	si.Status.Rebuild = &st
	r.Recorder.Eventf(si, nil, "Normal", "RebuildStarted", "Rebuild", "rebuilding for generation %d", si.Generation)
	return rebuildPoll
}

// endedElsewhere is the status of a rebuild that status says is running while no job of
// this operator runs it and the wanted settings are live: a previous leader ran it and
// stopped before reporting the end. It succeeded when its target is the index behind
// the alias, and was superseded otherwise. A rebuild that failed for settings older
// than generation was superseded too (see supersededStatus).
func endedElsewhere(prev *searchv1alpha1.RebuildStatus, physical string, generation int64, now metav1.Time) *searchv1alpha1.RebuildStatus {
	if prev == nil || prev.State != searchv1alpha1.RebuildRunning || prev.TargetIndex == "" || prev.TargetIndex != physical {
		return supersededStatus(prev, generation, now)
	}
	st := prev.DeepCopy()
	st.State, st.CompletionTime = searchv1alpha1.RebuildSucceeded, &now
	return st
}

// supersededStatus is the status of a rebuild whose settings were replaced by the ones
// already live: one still running ends, and one that failed for the settings of an
// older generation stops telling why, since its failure is not about the settings in
// force (GET /config would show it as if they had failed).
func supersededStatus(prev *searchv1alpha1.RebuildStatus, generation int64, now metav1.Time) *searchv1alpha1.RebuildStatus {
	if prev == nil {
		return nil
	}
	running := prev.State == searchv1alpha1.RebuildRunning
	staleFailure := prev.State == searchv1alpha1.RebuildFailed && prev.Generation < generation && prev.Error != supersededMessage
	if !running && !staleFailure {
		return prev
	}
	st := prev.DeepCopy()
	st.State, st.Error = searchv1alpha1.RebuildFailed, supersededMessage
	if running {
		st.CompletionTime = &now
	}
	return st
}

// runRebuild is the body of the job rebuilding si: it runs rebuild.Run and copies
// its progress into the job's status.
func (r *SearchIndexReconciler) runRebuild(ctx context.Context, si *searchv1alpha1.SearchIndex, names esnames.Index) func(context.Context, *rebuildJob) error {
	logger := log.FromContext(ctx)
	obj := si.DeepCopy()
	target := catalog.Target{Names: names, Settings: *si.Spec.Settings.DeepCopy()}
	return func(ctx context.Context, j *rebuildJob) error {
		announced := false
		_, err := rebuild.Run(ctx, r.Catalog, target, func(p rebuild.Progress) {
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
		if errors.Is(err, rebuild.ErrSourceMoved) {
			logger.Info("catalog replaced during the rebuild; the next reconcile decides again")
		}
		return err
	}
}
