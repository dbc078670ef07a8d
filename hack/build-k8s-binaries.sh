#!/usr/bin/env bash
# Builds the Kubernetes test binaries (etcd, kube-apiserver, kubectl) from their Go
# modules, at the version that matches the k8s.io libraries in go.mod, into
# bin/k8s/<version>/ (or the folder given as $1). Binaries already there are reused.
# Nothing prebuilt is downloaded: only the Go module proxy is used.
#
# kube-apiserver and kubectl live in k8s.io/kubernetes, whose go.mod points every
# k8s.io/<staging> module at ./staging with a local replace. A helper module that
# requires k8s.io/kubernetes and replaces each staging module with its published
# v0.x.y release lets `go build` work from the module cache alone. etcd is built in a
# module of its own, at the release k8s.io/kubernetes itself requires.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
api_version=$(awk '$1=="k8s.io/api"{print $2}' "$root/go.mod")
version=${K8S_VERSION:-v1.${api_version#v0.}}
out=${1:-$root/bin/k8s/$version}
minor=$(echo "$version" | cut -d. -f2)
mkdir -p "$out"
out=$(cd "$out" && pwd)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd / && GOFLAGS= go mod download "k8s.io/kubernetes@$version")
kube_mod="$(go env GOMODCACHE)/cache/download/k8s.io/kubernetes/@v/$version.mod"

# helper_module creates a module in $1 that requires k8s.io/kubernetes with every
# staging module replaced by its release.
helper_module() {
  mkdir -p "$1" && cd "$1"
  go mod init aisle.local/k8sbin >/dev/null 2>&1
  go mod edit -require="k8s.io/kubernetes@$version"
  for m in $(grep -Eo '^\s+k8s\.io/[a-z0-9-]+ v0\.0\.0$' "$kube_mod" | awk '{print $1}'); do
    go mod edit -replace="$m=$m@v0.${version#v1.}"
  done
  cat > tools.go <<'GO'
//go:build tools

package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kubectl"
)
GO
  go mod tidy >&2
}

# Stamp the version so `kube-apiserver --version` and `kubectl version` tell the truth.
stamp() {
  local pkg
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    printf -- '-X %s.gitVersion=%s -X %s.gitMajor=1 -X %s.gitMinor=%s -X %s.gitTreeState=clean ' \
      "$pkg" "$version" "$pkg" "$pkg" "$minor" "$pkg"
  done
}

if [ ! -x "$out/kube-apiserver" ] || [ ! -x "$out/kubectl" ]; then
  (
    helper_module "$work/kube"
    echo "building kube-apiserver and kubectl $version" >&2
    for cmd in kube-apiserver kubectl; do
      CGO_ENABLED=0 go build -trimpath -ldflags "-s -w $(stamp)" -o "$out/$cmd" "k8s.io/kubernetes/cmd/$cmd"
    done
  )
fi

if [ ! -x "$out/etcd" ]; then
  etcd_version=$(awk '$1=="go.etcd.io/etcd/server/v3"{print $2}' "$kube_mod")
  (
    mkdir -p "$work/etcd" && cd "$work/etcd"
    go mod init aisle.local/etcdbin >/dev/null 2>&1
    echo "building etcd $etcd_version" >&2
    go get "go.etcd.io/etcd/server/v3@$etcd_version" >&2
    CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$out/etcd" go.etcd.io/etcd/server/v3
  )
fi
echo "$out"
