#!/usr/bin/env bash
# Runs every Go native fuzz target of the module for FUZZTIME each (go test -fuzz takes
# one target at a time). New inputs that fail are written under the package's
# testdata/fuzz/<target>/ and fail the run.
#
# FUZZTIME is a count of inputs ("20000x") or a duration ("2m"). make test uses a count:
# on Go 1.26 a duration budget can end a clean run with "context deadline exceeded" and
# no failing input (go.dev/issue/75804, fixed in Go 1.27: the coordinator's deadline races
# its workers' context), which a loaded CI machine hits every few runs. A count has no
# deadline to race; a slow machine only takes longer.
set -euo pipefail
FUZZTIME="${FUZZTIME:-10000x}"
# FUZZ_SKIP: packages (a regular expression) left out; none by default. The first target
# whose package links the typed Elasticsearch client compiles it instrumented (thousands
# of files: about 10 minutes on 2 busy cores); the build cache serves every later one,
# about 20 seconds each.
FUZZ_SKIP="${FUZZ_SKIP:-^$}"
cd "$(dirname "$0")/.."
for pkg in $(go list ./... | grep -Ev "$FUZZ_SKIP"); do
  dir=$(go list -f '{{.Dir}}' "$pkg")
  targets=$(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' || true)
  for target in $targets; do
    echo "fuzz $pkg $target ($FUZZTIME)"
    start=$SECONDS
    go test -run='^$' -fuzz="^${target}\$" -fuzztime="$FUZZTIME" -timeout=20m "$pkg"
    echo "fuzz $target took $((SECONDS - start)) s"
  done
done
