#!/usr/bin/env bash
# Builds the Kubernetes test binaries (etcd, kube-apiserver, kubectl) from their Go
# modules, at the version that matches the k8s.io libraries in go.mod, into
# bin/k8s/<version>/. No prebuilt download is involved: only the Go module proxy.
#
# kube-apiserver and kubectl live in k8s.io/kubernetes, whose go.mod points every
# k8s.io/<staging> module at ./staging with a local replace. A helper module that
# requires k8s.io/kubernetes and replaces each staging module with its published
# v0.x.y release makes `go build` work from the module cache alone.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
api_version=$(awk '$1=="k8s.io/api"{print $2}' "$root/go.mod")
version=${K8S_VERSION:-v1.${api_version#v0.}}
out=${1:-$root/bin/k8s/$version}

if [ -x "$out/kube-apiserver" ] && [ -x "$out/etcd" ] && [ -x "$out/kubectl" ]; then
  echo "$out"
  exit 0
fi
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

staging_version="v0.${version#v1.}"
cd "$work"
go mod init aisle.local/k8sbin >/dev/null 2>&1
go mod edit -require="k8s.io/kubernetes@$version"
(cd / && GOFLAGS= go mod download "k8s.io/kubernetes@$version")
modfile="$(go env GOMODCACHE)/cache/download/k8s.io/kubernetes/@v/$version.mod"
for m in $(grep -Eo '^\s+k8s\.io/[a-z0-9-]+ v0\.0\.0$' "$modfile" | awk '{print $1}'); do
  go mod edit -replace="$m=$m@$staging_version"
done
go mod tidy >/dev/null 2>&1 || true
cat > tools.go <<'GO'
//go:build tools

package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kubectl"
	_ "go.etcd.io/etcd/server/v3"
)
GO
go mod tidy >&2

# Stamp the version so `kube-apiserver --version` tells the truth.
pkg=k8s.io/component-base/version
minor=$(echo "$version" | cut -d. -f2)
ldflags="-s -w -X $pkg.gitVersion=$version -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor -X $pkg.gitTreeState=clean"
ldflags="$ldflags -X k8s.io/client-go/pkg/version.gitVersion=$version -X k8s.io/client-go/pkg/version.gitMajor=1 -X k8s.io/client-go/pkg/version.gitMinor=$minor"
echo "building kube-apiserver and kubectl $version" >&2
CGO_ENABLED=0 go build -trimpath -ldflags "$ldflags" -o "$out/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver
CGO_ENABLED=0 go build -trimpath -ldflags "$ldflags" -o "$out/kubectl" k8s.io/kubernetes/cmd/kubectl

# etcd: the release that k8s.io/kubernetes itself requires, built in the same module.
etcd_version=$(awk '$1=="go.etcd.io/etcd/server/v3"{print $2}' "$modfile")
echo "building etcd $etcd_version" >&2
go mod edit -require="go.etcd.io/etcd/server/v3@$etcd_version"
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$out/etcd" go.etcd.io/etcd/server/v3
echo "$out"
