// Package settingsfence makes a change of an index's settings or public search policy,
// once an API server answered it, the one every later search uses, on every replica.
//
// Searches read the SearchIndex from each replica's informer cache, which learns of a
// change a moment after the Kubernetes API stored it. The writer therefore answers only
// once (Publish) it has raised the index's mark, the generation it wrote, in the index's
// control document "settings"; its own informer holds that generation; and Bound has
// passed since the mark was raised. Every replica keeps each index's mark for less than
// Bound after it sent the read (Marks), so a search that starts after the answer, on any
// replica, compares its informer's copy with a mark read after the raise (Settled): a
// replica behind waits for its informer to catch up. The common case costs a search no
// request: a mark in use is read again in the background, once per half Bound while
// searches come. A write costs Bound more.
package settingsfence

import (
	"context"
	"errors"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/types"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/catalog/wait"
	"github.com/aislehq/aisle/internal/esnames"
)

// MaxWait bounds how long a write or a search waits for the informer to reach a
// generation: the informer normally follows within milliseconds.
const MaxWait = 10 * time.Second

// ErrNotSettled: the informer did not reach the generation written in MaxWait (503).
var ErrNotSettled = errors.New("the index's settings changed and this server has not learnt the change yet; retry")

// Informer is the replica's informer cache of SearchIndexes (tenancy.Registry).
type Informer interface {
	// IndexAt returns the index key once the informer holds generation gen of object
	// uid, or a later one.
	IndexAt(ctx context.Context, key types.NamespacedName, uid types.UID, gen int64) (*searchv1alpha1.SearchIndex, error)
}

// Fence publishes a replica's writes and checks its searches' copies of indexes.
type Fence struct {
	marks    *Marks
	informer Informer
}

// New builds a fence on marks and informer. Without marks (no search backend) a write
// waits for its own replica's informer only.
func New(marks *Marks, informer Informer) *Fence {
	return &Fence{marks: marks, informer: informer}
}

// Publish returns once idx, as the Kubernetes API stored it after a write of its
// settings or policy, is what every later search reads (see the package comment).
func (f *Fence) Publish(ctx context.Context, idx *searchv1alpha1.SearchIndex) error {
	var raised time.Time
	if f.marks != nil {
		mark := Mark{UID: string(idx.UID), Generation: idx.Generation}
		if err := f.marks.Raise(ctx, esnames.For(idx.Namespace, idx.Name), mark); err != nil {
			return err
		}
		raised = f.marks.now()
	}
	if _, err := f.await(ctx, idx, idx.Generation); err != nil {
		return err
	}
	if f.marks == nil {
		return nil
	}
	return wait.Sleep(ctx, f.marks.bound-f.marks.now().Sub(raised))
}

// Settled returns idx, the informer's copy read for a request, or the informer's copy
// once it holds the newest generation a replica wrote.
func (f *Fence) Settled(ctx context.Context, idx *searchv1alpha1.SearchIndex) (*searchv1alpha1.SearchIndex, error) {
	if f == nil || f.marks == nil || idx == nil {
		return idx, nil
	}
	mark, err := f.marks.Current(ctx, esnames.For(idx.Namespace, idx.Name))
	if err != nil {
		return nil, err
	}
	if mark.HeldBy(idx) {
		return idx, nil
	}
	return f.await(ctx, idx, mark.Generation)
}

// await waits up to MaxWait for the informer to hold generation gen of idx.
func (f *Fence) await(ctx context.Context, idx *searchv1alpha1.SearchIndex, gen int64) (*searchv1alpha1.SearchIndex, error) {
	waitCtx, cancel := context.WithTimeout(ctx, MaxWait)
	defer cancel()
	held, err := f.informer.IndexAt(waitCtx, types.NamespacedName{Namespace: idx.Namespace, Name: idx.Name}, idx.UID, gen)
	if err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		return nil, fmt.Errorf("%w: %w", ErrNotSettled, err)
	}
	return held, err
}
