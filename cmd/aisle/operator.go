package main

import (
	"errors"
	"flag"
	"fmt"
	"os"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/aislehq/aisle/controllers"
	esclient "github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/kubescheme"
)

// LeaderElectionID names the lease the operator replicas compete for.
const LeaderElectionID = "aisle-operator.search.aisle.dev"

// The leader election's rules are the role aisle-leader-election (make manifests), apart
// from the operator's ClusterRole: the chart grants them in the lease's namespace only, so
// the operator cannot take over other controllers' leases. The events are the election's.
// +kubebuilder:rbac:groups=coordination.k8s.io,resources=leases,verbs=get;create;update
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch
// +kubebuilder:rbac:groups="",resources=events,verbs=create;patch

func init() {
	commands["operator"] = command{summary: "run the Kubernetes operator", run: runOperator}
}

func runOperator(args []string) error {
	fs := flag.NewFlagSet("operator", flag.ContinueOnError)
	es := bindESConnection(fs)
	metricsAddr := fs.String("metrics-bind-address", ":8080", "address of the Prometheus metrics endpoint; 0 disables it")
	probeAddr := fs.String("health-probe-bind-address", ":8081", "address of the health and readiness probes")
	leaderElect := fs.Bool("leader-elect", true, "elect a leader so that only one replica reconciles")
	leaderNS := fs.String("leader-election-namespace", os.Getenv("POD_NAMESPACE"),
		"namespace of the leader election lease; default $POD_NAMESPACE, or the pod's own namespace in a cluster")
	zapOpts := zap.Options{}
	zapOpts.BindFlags(fs)
	// --kubeconfig is registered on the default flag set by controller-runtime's config package.
	fs.Var(flagValue("kubeconfig"), "kubeconfig", "path to a kubeconfig; default in-cluster or $KUBECONFIG")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&zapOpts)))
	esURL, err := es.URL()
	if err != nil {
		return fmt.Errorf("operator: %w", err)
	}
	if esURL == "" {
		return fmt.Errorf("operator: set --es-url or AISLE_ES_URL")
	}
	client, err := esclient.New(esURL)
	if err != nil {
		return err
	}
	cfg, err := ctrl.GetConfig()
	if err != nil {
		return fmt.Errorf("operator: loading the Kubernetes config: %w", err)
	}
	scheme, err := kubescheme.New()
	if err != nil {
		return err
	}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                        scheme,
		Cache:                         controllers.CacheOptions(),
		Metrics:                       metricsserver.Options{BindAddress: *metricsAddr},
		HealthProbeBindAddress:        *probeAddr,
		LeaderElection:                *leaderElect,
		LeaderElectionID:              LeaderElectionID,
		LeaderElectionNamespace:       *leaderNS,
		LeaderElectionReleaseOnCancel: true,
	})
	if err != nil {
		return fmt.Errorf("operator: creating the manager: %w", err)
	}
	if err := controllers.Setup(mgr, controllers.Options{ES: client}); err != nil {
		return err
	}
	if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
		return err
	}
	if err := mgr.AddReadyzCheck("readyz", healthz.Ping); err != nil {
		return err
	}
	return mgr.Start(ctrl.SetupSignalHandler())
}

// flagValue forwards a flag to the one of the same name on the default flag set, where
// controller-runtime's config loading reads it.
func flagValue(name string) flag.Value {
	if f := flag.CommandLine.Lookup(name); f != nil {
		return f.Value
	}
	return new(stringValue)
}

type stringValue string

func (s *stringValue) String() string     { return string(*s) }
func (s *stringValue) Set(v string) error { *s = stringValue(v); return nil }
