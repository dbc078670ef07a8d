package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client/config"

	"github.com/aislehq/aisle/internal/kubescheme"
)

// kubeClientConfig loads the Kubernetes client configuration from a kubeconfig path,
// or the usual places (in-cluster, $KUBECONFIG, ~/.kube/config), and the scheme of
// the types Aisle reads.
func kubeClientConfig(path string) (*rest.Config, *runtime.Scheme, error) {
	var cfg *rest.Config
	var err error
	if path != "" {
		cfg, err = clientcmd.BuildConfigFromFlags("", path)
	} else {
		cfg, err = config.GetConfig()
	}
	if err != nil {
		return nil, nil, fmt.Errorf("loading Kubernetes client config: %w", err)
	}
	scheme, err := kubescheme.New()
	return cfg, scheme, err
}

// signalContext ends on SIGINT or SIGTERM, so servers shut down gracefully.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}
