// Package devenv runs Aisle on one machine: a local Kubernetes control plane (etcd and
// kube-apiserver, as envtest starts them) with the CRDs installed, the samples applied,
// and a dev-env.json that tells scripts how to reach it all.
package devenv

import (
	"fmt"
	"os"
	"path/filepath"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// ControlPlane is a running local etcd and kube-apiserver.
type ControlPlane struct {
	env            *envtest.Environment
	Config         *rest.Config
	KubeconfigPath string
}

// StartControlPlane starts etcd with its data in dataDir/etcd (so a second run keeps
// the objects) and kube-apiserver from the binaries in assets, installs the CRDs of
// crdDir, and writes a kubeconfig to dataDir/kubeconfig.
func StartControlPlane(dataDir, assets, crdDir string, scheme *runtime.Scheme) (*ControlPlane, error) {
	etcdDir := filepath.Join(dataDir, "etcd")
	if err := os.MkdirAll(etcdDir, 0o700); err != nil {
		return nil, err
	}
	env := &envtest.Environment{
		CRDDirectoryPaths:     []string{crdDir},
		ErrorIfCRDPathMissing: true,
		BinaryAssetsDirectory: assets,
		Scheme:                scheme,
	}
	env.ControlPlane.Etcd = &envtest.Etcd{DataDir: etcdDir}
	cfg, err := env.Start()
	if err != nil {
		return nil, fmt.Errorf("starting etcd and kube-apiserver from %s: %w", assets, err)
	}
	cp := &ControlPlane{env: env, Config: cfg, KubeconfigPath: filepath.Join(dataDir, "kubeconfig")}
	if err := os.WriteFile(cp.KubeconfigPath, env.KubeConfig, 0o600); err != nil {
		_ = env.Stop()
		return nil, fmt.Errorf("writing kubeconfig: %w", err)
	}
	return cp, nil
}

// Stop stops kube-apiserver and etcd; etcd's data stays.
func (cp *ControlPlane) Stop() error {
	return cp.env.Stop()
}
