package devenv

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/go-logr/logr"
	"golang.org/x/sync/errgroup"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/aislehq/aisle/apiserver"
	"github.com/aislehq/aisle/controllers"
	"github.com/aislehq/aisle/internal/engine"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/kubescheme"
)

// Options configure a local system.
type Options struct {
	Root       string // repository root: config/crd/bases and config/samples are read from it
	DataDir    string // etcd and engine data, kubeconfig; reused by the next run
	Assets     string // etcd, kube-apiserver, kubectl
	Listen     string // the API server's address
	EngineAddr string // the engine's address
	EnvFile    string // where dev-env.json is written
	Workspace  string // the sample workspace to wait for
	Logger     *slog.Logger
	// Started is called once everything is Ready, with what dev-env.json holds.
	Started func(Env)
	// Front, when set, is given the engine's URL and returns the URL the operator and the
	// API server use instead: tests put a recorder of their requests there.
	Front func(engineURL string) (string, error)
}

// Run starts the control plane, the engine, the operator and the API server in this
// process, applies the samples, waits until they are Ready, writes the env file, and
// serves until ctx ends; then it stops everything, keeping the data.
func Run(ctx context.Context, o Options) error {
	scheme, err := kubescheme.New()
	if err != nil {
		return err
	}
	cp, err := StartControlPlane(o.DataDir, o.Assets, filepath.Join(o.Root, "config", "crd", "bases"), scheme)
	if err != nil {
		return err
	}
	defer stopLogged(o.Logger, "control plane", cp.Stop)
	eng, err := engine.Start(ctx, engine.Config{DataDir: filepath.Join(o.DataDir, "engine"), Addr: o.EngineAddr})
	if err != nil {
		return fmt.Errorf("starting the engine: %w", err)
	}
	defer stopLogged(o.Logger, "engine", eng.Close)
	esURL, err := o.productURL(eng.URL())
	if err != nil {
		return err
	}

	ctrl.SetLogger(logr.FromSlogHandler(o.Logger.Handler()))
	mgr, err := newManager(cp, esURL)
	if err != nil {
		return err
	}
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return mgr.Start(gctx) })
	g.Go(func() error {
		return apiserver.Run(gctx, cp.Config, scheme, apiserver.RunOptions{Addr: o.Listen, ESURL: esURL, Config: apiserver.Config{Logger: o.Logger}})
	})
	g.Go(func() error { return bringUp(gctx, mgr.GetClient(), o, cp, eng.URL()) })
	err = g.Wait()
	if errors.Is(err, context.Canceled) || ctx.Err() != nil {
		return nil
	}
	return err
}

// productURL is the backend URL of the operator and the API server.
func (o Options) productURL(engineURL string) (string, error) {
	if o.Front == nil {
		return engineURL, nil
	}
	return o.Front(engineURL)
}

func newManager(cp *ControlPlane, esURL string) (ctrl.Manager, error) {
	esClient, err := es.New(esURL)
	if err != nil {
		return nil, err
	}
	scheme, err := kubescheme.New()
	if err != nil {
		return nil, err
	}
	mgr, err := ctrl.NewManager(cp.Config, ctrl.Options{
		Scheme:                 scheme,
		Cache:                  controllers.CacheOptions(),
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
	})
	if err != nil {
		return nil, fmt.Errorf("creating the operator's manager: %w", err)
	}
	return mgr, controllers.Setup(mgr, controllers.Options{ES: esClient})
}

// bringUp applies the samples, waits until they are Ready and writes the env file.
func bringUp(ctx context.Context, c client.Client, o Options, cp *ControlPlane, engineURL string) error {
	objs, err := ReadManifests(filepath.Join(o.Root, "config", "samples", "search_*.yaml"))
	if err != nil {
		return err
	}
	if err := Apply(ctx, c, objs); err != nil {
		return err
	}
	if err := waitReady(ctx, c, o); err != nil {
		return err
	}
	indexes, keys, err := Collect(ctx, c, o.Workspace)
	if err != nil {
		return err
	}
	env := Env{BaseURL: "http://" + o.Listen, EngineURL: engineURL, Kubeconfig: cp.KubeconfigPath,
		Workspace: o.Workspace, Indexes: indexes, Keys: keys, Kubectl: filepath.Join(o.Assets, "kubectl")}
	if err := env.Write(o.EnvFile); err != nil {
		return fmt.Errorf("writing %s: %w", o.EnvFile, err)
	}
	if o.Started != nil {
		o.Started(env)
	}
	return nil
}

func waitReady(ctx context.Context, c client.Client, o Options) error {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		ready, waiting, err := Ready(ctx, c, o.Workspace)
		if err == nil && ready {
			return nil
		}
		if time.Now().After(deadline) {
			if err != nil {
				return fmt.Errorf("the samples did not become Ready within 2 minutes: %w", err)
			}
			return fmt.Errorf("the samples did not become Ready within 2 minutes (waiting for %s)", waiting)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func stopLogged(logger *slog.Logger, what string, stop func() error) {
	if err := stop(); err != nil {
		logger.Error("stopping "+what, slog.Any("error", err))
	}
}

// DefaultDataDir is where a run keeps its data, relative to the repository root.
func DefaultDataDir(root string) string {
	if dir := os.Getenv("AISLE_DEV_DATA"); dir != "" {
		return dir
	}
	return filepath.Join(root, ".dev")
}
