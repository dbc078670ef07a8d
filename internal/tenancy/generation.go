package tenancy

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/types"
	toolscache "k8s.io/client-go/tools/cache"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// changes wakes whoever waits for the informer to reach a SearchIndex's generation: the
// channel is closed, and replaced, at each change the informer applies.
type changes struct {
	mu sync.Mutex
	ch chan struct{}
}

func newChanges() *changes { return &changes{ch: make(chan struct{})} }

// next is closed at the next change.
func (c *changes) next() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ch
}

func (c *changes) changed() {
	c.mu.Lock()
	defer c.mu.Unlock()
	close(c.ch)
	c.ch = make(chan struct{})
}

// watchChanges tells r.changes of every SearchIndex the informer adds or updates.
func (r *Registry) watchChanges(ctx context.Context) error {
	inf, err := r.cache.GetInformer(ctx, &searchv1alpha1.SearchIndex{})
	if err != nil {
		return fmt.Errorf("watching search indexes: %w", err)
	}
	_, err = inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { r.changes.changed() },
		UpdateFunc: func(any, any) { r.changes.changed() },
	})
	if err != nil {
		return fmt.Errorf("watching search indexes: %w", err)
	}
	return nil
}

// IndexAt returns the SearchIndex key as the informer holds it once it holds generation
// gen of the object uid or a later one, waiting until ctx ends (its error then). An index
// deleted, or replaced by another object of the same name, is ErrIndexNotFound: what
// was written to it is gone.
func (r *Registry) IndexAt(ctx context.Context, key types.NamespacedName, uid types.UID, gen int64) (*searchv1alpha1.SearchIndex, error) {
	for {
		wake := r.changes.next()
		idx, err := r.Index(ctx, key.Namespace, key.Name)
		if err != nil && !errors.Is(err, ErrIndexNotFound) {
			return nil, err
		}
		if idx != nil && idx.UID != uid {
			return nil, ErrIndexNotFound
		}
		if idx != nil && idx.Generation >= gen {
			return idx, nil
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for generation %d of index %s: %w", gen, key, ctx.Err())
		}
	}
}
