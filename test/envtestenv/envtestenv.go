// Package envtestenv starts a real kube-apiserver and etcd (the binaries that
// `make k8s-binaries` builds from their Go modules) with Aisle's CRDs installed.
package envtestenv

import (
	"path/filepath"

	"github.com/aislehq/aisle/internal/repo"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
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

// WriteKubeconfig writes cfg as a kubeconfig file at path, for component processes.
func WriteKubeconfig(cfg *rest.Config, path string) error {
	kc := clientcmdapi.NewConfig()
	kc.Clusters["envtest"] = &clientcmdapi.Cluster{Server: cfg.Host, CertificateAuthorityData: cfg.CAData}
	kc.AuthInfos["envtest"] = &clientcmdapi.AuthInfo{ClientCertificateData: cfg.CertData, ClientKeyData: cfg.KeyData, Token: cfg.BearerToken}
	kc.Contexts["envtest"] = &clientcmdapi.Context{Cluster: "envtest", AuthInfo: "envtest"}
	kc.CurrentContext = "envtest"
	return clientcmd.WriteToFile(*kc, path)
}
