package apiserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"golang.org/x/sync/errgroup"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"k8s.io/utils/clock"

	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/tenancy"
)

// RunOptions configure a running API server.
type RunOptions struct {
	Config
	// Addr is the listen address, for example ":8080".
	Addr string
	// ESURL is the search backend; empty leaves the record endpoints answering 503.
	ESURL string
	// CatalogConfig tunes the write path.
	CatalogConfig catalog.Config
}

// Run serves the API until ctx ends: it starts the informers, listens at once (readyz
// answers 503 until the informers are in sync), and shuts down gracefully.
func Run(ctx context.Context, kube *rest.Config, scheme *runtime.Scheme, opts RunOptions) error {
	registry, err := tenancy.NewRegistry(ctx, kube, scheme, clock.RealClock{})
	if err != nil {
		return err
	}
	if opts.ESURL != "" && opts.Catalog == nil {
		client, err := es.New(opts.ESURL)
		if err != nil {
			return err
		}
		opts.Catalog = catalog.New(client, opts.CatalogConfig)
	}
	s := New(opts.Config, registry)
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { return registry.Start(ctx) })
	g.Go(func() error {
		if !registry.WaitForSync(ctx) {
			return errors.New("informers did not sync")
		}
		s.SetReady(true)
		loggerFrom(ctx).InfoContext(ctx, "tenancy informers in sync")
		return nil
	})
	g.Go(func() error {
		loggerFrom(ctx).InfoContext(ctx, "API server listening", slog.String("addr", opts.Addr))
		if err := s.Listen(ctx, opts.Addr); err != nil {
			return fmt.Errorf("serving HTTP on %s: %w", opts.Addr, err)
		}
		return nil
	})
	err = g.Wait()
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
