// Package system starts the whole of Aisle in the test process, as `aisle dev` does:
// etcd and kube-apiserver, the engine, the operator and the API server, with the
// samples applied and Ready. Suites that test across components share it. The operator
// and the API server reach the engine through an esspec.Recorder; Stop fails when one of
// them sent a request outside Elasticsearch's REST API specification.
package system

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"

	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/aislehq/aisle/internal/devenv"
	"github.com/aislehq/aisle/internal/kubescheme"
	"github.com/aislehq/aisle/internal/repo"
	"github.com/aislehq/aisle/test/esspec"
)

// Running is a started system.
type Running struct {
	Env      devenv.Env
	Root     string
	cancel   context.CancelFunc
	done     chan error
	recorder *esspec.Recorder
}

// Start brings the system up with its data in dir and returns once the samples are Ready.
func Start(dir string) (*Running, error) {
	root, err := repo.Root()
	if err != nil {
		return nil, err
	}
	assets, err := repo.AssetsDir(root)
	if err != nil {
		return nil, err
	}
	listen, engineAddr := freeAddr(), freeAddr()
	if listen == "" || engineAddr == "" {
		return nil, errors.New("no free loopback port")
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &Running{Root: root, cancel: cancel, done: make(chan error, 1)}
	started := make(chan devenv.Env, 1)
	opts := devenv.Options{
		Root: root, DataDir: dir, Assets: assets, Workspace: "demo",
		Listen: listen, EngineAddr: engineAddr, EnvFile: filepath.Join(dir, "dev-env.json"),
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
		Started: func(e devenv.Env) { started <- e },
		Front:   r.record,
	}
	go func() { r.done <- devenv.Run(ctx, opts) }()
	select {
	case r.Env = <-started:
		return r, nil
	case err := <-r.done:
		cancel()
		return nil, errors.Join(errors.New("the system stopped before it was ready"), err)
	}
}

// Client returns a Kubernetes client for the system's kube-apiserver, with Aisle's kinds.
func (r *Running) Client() (client.Client, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", r.Env.Kubeconfig)
	if err != nil {
		return nil, err
	}
	scheme, err := kubescheme.New()
	if err != nil {
		return nil, err
	}
	return client.New(cfg, client.Options{Scheme: scheme})
}

// Stop stops everything and reports how the run ended, and the requests to the engine
// outside Elasticsearch's specification.
func (r *Running) Stop() error {
	r.cancel()
	err := <-r.done
	if r.recorder != nil {
		err = errors.Join(err, r.recorder.Close())
	}
	return err
}

func (r *Running) record(engineURL string) (string, error) {
	rec, err := esspec.Record(engineURL, os.Stderr)
	if err != nil {
		return "", err
	}
	r.recorder = rec
	return rec.URL(), nil
}

func freeAddr() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return ""
	}
	defer l.Close()
	return l.Addr().String()
}
