// Package repo finds the repository a command or test runs from, and the Kubernetes test
// binaries built into it.
package repo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Root returns the folder holding go.mod, found upwards from the working directory.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}

// AssetsDir returns the folder of etcd, kube-apiserver and kubectl: $KUBEBUILDER_ASSETS,
// or bin/k8s/<version> under root as `make k8s-binaries` builds it. There is no download
// fallback, so a missing build fails loudly.
func AssetsDir(root string) (string, error) {
	if dir := os.Getenv("KUBEBUILDER_ASSETS"); dir != "" {
		return dir, nil
	}
	version, err := k8sVersion(root)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, "bin", "k8s", version)
	if _, err := os.Stat(filepath.Join(dir, "kube-apiserver")); err != nil {
		return "", fmt.Errorf("no kube-apiserver in %s: run `make k8s-binaries` or set KUBEBUILDER_ASSETS", dir)
	}
	return dir, nil
}

// k8sVersion maps go.mod's k8s.io/api v0.X.Y to the Kubernetes release v1.X.Y.
func k8sVersion(root string) (string, error) {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(data), "\n") {
		fields := strings.Fields(line)
		if len(fields) >= 2 && fields[0] == "k8s.io/api" {
			return "v1." + strings.TrimPrefix(fields[1], "v0."), nil
		}
	}
	return "", fmt.Errorf("go.mod does not require k8s.io/api")
}
