// Package envtestenv starts a real kube-apiserver and etcd (the binaries that
// `make k8s-binaries` builds from their Go modules) with Aisle's CRDs installed.
package envtestenv

import (
	"path/filepath"

	"github.com/aislehq/aisle/internal/repo"

	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/aislehq/aisle/internal/kubescheme"
)

// New returns an environment with the generated CRDs from config/crd/bases.
func New() (*envtest.Environment, error) {
	root, err := repo.Root()
	if err != nil {
		return nil, err
	}
	assets, err := repo.AssetsDir(root)
	if err != nil {
		return nil, err
	}
	s, err := kubescheme.New()
	if err != nil {
		return nil, err
	}
	return &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join(root, "config", "crd", "bases")},
		ErrorIfCRDPathMissing: true,
		BinaryAssetsDirectory: assets,
		Scheme:                s,
	}, nil
}
