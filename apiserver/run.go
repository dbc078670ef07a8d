package apiserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"golang.org/x/sync/errgroup"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/embedding"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/events"
	"github.com/aislehq/aisle/internal/recommend"
	"github.com/aislehq/aisle/internal/search"
	"github.com/aislehq/aisle/internal/searchlog"
	"github.com/aislehq/aisle/internal/settingsfence"
	"github.com/aislehq/aisle/internal/tenancy"
	"github.com/aislehq/aisle/internal/usage"
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
	// EmbedderURL is the url of an openAI embedder that names none (--embedder-url).
	EmbedderURL string
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
	if err := opts.wire(kube, scheme); err != nil {
		return err
	}
	s := New(opts.Config, registry)
	g, ctx := errgroup.WithContext(ctx)
	if opts.Usage != nil {
		g.Go(func() error { opts.Usage.Run(ctx, usage.DefaultFlushInterval); return nil })
	}
	if opts.SearchLog != nil {
		g.Go(func() error { opts.SearchLog.Run(ctx); return nil })
	}
	g.Go(func() error { return registry.Start(ctx) })
	g.Go(func() error {
		if !registry.WaitForSync(ctx) {
			return errors.New("informers did not sync")
		}
		s.SetReady(true)
		loggerFrom(ctx).InfoContext(ctx, "tenancy informers in sync")
		if opts.Embedding != nil {
			opts.Embedding.Run(ctx, registry.AllIndexes)
		}
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
	releaseReservations(ctx, opts.Catalog)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// releaseReservations gives up the revisions the catalog holds for its next writes, once
// no request runs any more, so that other replicas need not wait for their leases.
func releaseReservations(ctx context.Context, c *catalog.Service) {
	if c == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	c.ReleaseReservations(ctx)
}

// wire builds the search service, the usage meter, the settings writer and the settings
// marks that the options do not bring.
func (o *RunOptions) wire(kube *rest.Config, scheme *runtime.Scheme) error {
	if o.Writer == nil {
		w, err := client.New(kube, client.Options{Scheme: scheme})
		if err != nil {
			return fmt.Errorf("creating the Kubernetes client: %w", err)
		}
		o.Writer = w
	}
	if o.ESURL == "" {
		return nil
	}
	esClient, err := es.New(o.ESURL)
	if err != nil {
		return err
	}
	if o.Search == nil {
		o.Search = search.New(esClient)
	}
	if o.Insights == nil {
		o.Insights = events.NewReader(esClient, nil)
	}
	if o.Recommend == nil {
		o.Recommend = recommend.New(esClient, o.Search, nil)
	}
	if o.Usage == nil {
		o.Usage = usage.New(esClient, esnames.Usage(esnames.DefaultPrefix))
	}
	if o.Events == nil {
		o.Events = events.New(esClient, events.Config{})
	}
	if o.Searches == nil {
		o.Searches = searchlog.NewReader(esClient)
	}
	if o.SearchLog == nil {
		o.SearchLog = searchlog.New(esClient, searchlog.Config{Logger: o.Logger})
	}
	if o.Marks == nil {
		o.Marks = settingsfence.NewMarks(esClient, settingsfence.DefaultBound)
	}
	if o.Embedding == nil {
		e, err := embedding.New(esClient, embedding.Config{DefaultURL: o.EmbedderURL, Tokens: SecretTokens(o.Writer), Logger: o.Logger})
		if err != nil {
			return err
		}
		o.Embedding = e
	}
	return nil
}
