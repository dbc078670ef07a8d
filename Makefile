# Aisle: every target works on a fresh machine that reaches only the Go module proxy.
# Tools and Kubernetes test binaries are built from their Go modules into bin/ and reused.

SHELL = /usr/bin/env bash -o pipefail
.SHELLFLAGS = -ec

LOCALBIN ?= $(shell pwd)/bin
$(LOCALBIN):
	mkdir -p $(LOCALBIN)

## Tool versions
CONTROLLER_TOOLS_VERSION ?= v0.21.0
GOLANGCI_LINT_VERSION ?= v2.15.0
HELM_VERSION ?= v3.22.0
HELM_DOCS_VERSION ?= v1.14.2
# The Kubernetes test binaries follow the k8s.io libraries in go.mod (k8s.io/api v0.X.Y -> v1.X.Y).
K8S_VERSION ?= v1.$(patsubst v0.%,%,$(shell awk '$$1=="k8s.io/api"{print $$2}' go.mod))
K8S_BIN ?= $(LOCALBIN)/k8s/$(K8S_VERSION)

CONTROLLER_GEN ?= $(LOCALBIN)/controller-gen-$(CONTROLLER_TOOLS_VERSION)
GOLANGCI_LINT ?= $(LOCALBIN)/golangci-lint-$(GOLANGCI_LINT_VERSION)
HELM ?= $(LOCALBIN)/helm-$(HELM_VERSION)
HELM_DOCS ?= $(LOCALBIN)/helm-docs-$(HELM_DOCS_VERSION)

# The image: version and revision become its OCI labels.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
REVISION ?= $(shell git rev-parse HEAD 2>/dev/null)
IMAGE ?= aisle:$(VERSION)
IMAGE_TAR ?= dist/aisle-$(VERSION).oci.tar

# A loaded machine may take longer than go test's default of 10 minutes for one package
# (hack/image cross-builds the binary): time is not what a test checks.
GO_TEST_FLAGS ?= -count=1 -timeout=30m
# make test fuzzes each target briefly, by a count of inputs (hack/fuzz.sh says why not a
# duration); make fuzz for longer.
SHORT_FUZZTIME ?= 10000x
FUZZTIME ?= 2m
BENCH ?= .

.PHONY: all
all: build

##@ General

.PHONY: help
help: ## Show the targets.
	@awk 'BEGIN {FS = ":.*##"; printf "\nUsage:\n  make \033[36m<target>\033[0m\n"} /^[a-zA-Z_0-9-]+:.*?##/ { printf "  \033[36m%-16s\033[0m %s\n", $$1, $$2 } /^##@/ { printf "\n\033[1m%s\033[0m\n", substr($$0, 5) } ' $(MAKEFILE_LIST)

##@ Development

# The leader election rules are a role of their own (markers in cmd/aisle), which the chart
# grants in the release's namespace only, not over every namespace's leases.
.PHONY: manifests
manifests: controller-gen helm-docs ## Generate CRDs and RBAC into config/, and the chart's CRDs, RBAC rules and README.
	rm -f config/crd/bases/*.yaml
	$(CONTROLLER_GEN) crd paths="./api/..." output:crd:artifacts:config=config/crd/bases
	$(CONTROLLER_GEN) rbac:roleName=aisle-operator paths="./controllers/..." output:rbac:artifacts:config=config/rbac/operator
	$(CONTROLLER_GEN) rbac:roleName=aisle-apiserver paths="./internal/tenancy/...;./internal/settingsstore/...;./apiserver/..." output:rbac:artifacts:config=config/rbac/apiserver
	$(CONTROLLER_GEN) rbac:roleName=aisle-leader-election paths="./cmd/aisle" output:rbac:artifacts:config=config/rbac/leader-election
	mkdir -p charts/aisle/crds
	rm -f charts/aisle/crds/*.yaml
	cp config/crd/bases/*.yaml charts/aisle/crds/
	mkdir -p charts/aisle/files/rbac
	rm -f charts/aisle/files/rbac/*.yaml
	for role in operator apiserver leader-election; do cp config/rbac/$$role/role.yaml charts/aisle/files/rbac/$$role.yaml; done
	$(HELM_DOCS) --chart-search-root charts --log-level warning

.PHONY: generate
generate: controller-gen dashboard-assets ## Generate DeepCopy methods, and copy the Events page's chart library.
	$(CONTROLLER_GEN) object:headerFile="hack/boilerplate.go.txt" paths="./..."

# The Events page's chart library comes from npm (apiserver/dashboard/package.json); its
# built file is copied beside the page, which the API server embeds, and committed.
DASHBOARD ?= apiserver/dashboard
.PHONY: dashboard-assets
dashboard-assets: $(DASHBOARD)/node_modules/.package-lock.json ## Copy the Events page's chart library (npm chart.js) into the embedded assets.
	cp $(DASHBOARD)/node_modules/chart.js/dist/chart.umd.min.js $(DASHBOARD)/chart.umd.min.js

.PHONY: fmt
fmt: ## Run gofmt on the code.
	gofmt -l -w $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './bin/*')

.PHONY: vet
vet: ## Run go vet.
	go vet ./...

.PHONY: test
test: manifests generate vet k8s-binaries browser-deps helm ## Run every test against the real kube-apiserver and etcd built here.
	HELM="$(HELM)" KUBEBUILDER_ASSETS="$(K8S_BIN)" go test $(GO_TEST_FLAGS) $$(go list ./... | grep -v '/test/conformance$$')
	$(MAKE) conformance
	FUZZTIME=$(SHORT_FUZZTIME) hack/fuzz.sh

.PHONY: fuzz
fuzz: ## Run every fuzz target for FUZZTIME (default 2m) each; failing inputs land in testdata/fuzz/.
	FUZZTIME=$(FUZZTIME) hack/fuzz.sh

# The conformance suite runs on its own, verbosely, so that its per-folder table and its
# "N passed, N failed, N skipped" line are printed.
.PHONY: conformance
conformance: ## Run Elasticsearch's YAML REST tests against the engine (AISLE_ES_URL: a running server; ES_CONFORMANCE_DIR: the files).
	go test -count=1 -timeout 30m -v ./test/conformance/ -ginkgo.no-color

.PHONY: bench
bench: k8s-binaries browser-deps ## Run the benchmarks (figures go to docs/benchmarks.md).
	KUBEBUILDER_ASSETS="$(K8S_BIN)" go test -run='^$$' -bench='$(BENCH)' -benchmem -benchtime=1x -timeout=60m ./...
	# The catalog's end-to-end write benchmarks are specs of the API suite (two replicas, real HTTP).
	AISLE_BENCH=1 KUBEBUILDER_ASSETS="$(K8S_BIN)" go test -count=1 -v -timeout=60m ./apiserver/ -run TestAPIServer -args -ginkgo.focus=Benchmark -ginkgo.v
	# Issue 38: the engine's peak RSS and kNN recall@10 at 100,000 products with 512-dimension int8_hnsw vectors, GOMEMLIMIT=1GiB.
	AISLE_BENCH_VECTORS=1 go test -run='^$$' -bench=BenchmarkCatalogVectors -benchtime=1x -timeout=60m ./internal/engine/
	# Issue 38: hybrid search's p99 and CPU beside words-only's through the API, on those 100,000 products.
	AISLE_BENCH_VECTORS=1 KUBEBUILDER_ASSETS="$(K8S_BIN)" go test -run='^$$' -bench=BenchmarkHybridSearch -benchtime=1x -timeout=60m ./test/searchbench/
	# The browser client's size and time per 100 events, measured in Chromium against the whole system.
	AISLE_BENCH=1 KUBEBUILDER_ASSETS="$(K8S_BIN)" go test -count=1 -v -timeout=20m ./test/browser/ -run TestBrowser -args -ginkgo.focus=Benchmark -ginkgo.v
	# aisle export and import of 100,000 records through the API, with the heap of the API server's process.
	AISLE_BENCH=1 KUBEBUILDER_ASSETS="$(K8S_BIN)" go test -count=1 -v -timeout=30m ./test/transfer/ -run TestTransfer -args -ginkgo.focus="100,000" -ginkgo.v

.PHONY: bench-million
bench-million: ## The engine's side of the shared benchmark against Lucene at one million documents, GOMEMLIMIT=2GiB (several minutes; not part of make bench).
	AISLE_BENCH_MILLION=1 go test -run='^$$' -bench=BenchmarkCatalogMillion -benchtime=1x -timeout=90m ./internal/engine/

.PHONY: bench-relevance
bench-relevance: k8s-binaries ## NDCG@10 on the judged catalogs of ../shared/relevance, Aisle through its API beside multi_match on plain indices (a few minutes; not part of make bench).
	AISLE_BENCH=1 KUBEBUILDER_ASSETS="$(K8S_BIN)" go test -count=1 -timeout=60m ./test/relevance/ -v -args -ginkgo.v

.PHONY: lint
lint: golangci-lint vet ## Run go vet and golangci-lint.
	$(GOLANGCI_LINT) run ./...

##@ Build

.PHONY: build
build: $(LOCALBIN) ## Build bin/aisle.
	go build -o $(LOCALBIN)/aisle ./cmd/aisle

.PHONY: image
image: $(LOCALBIN) ## Build the image as an OCI archive (dist/aisle-<version>.oci.tar) without Docker.
	CGO_ENABLED=0 GOOS=linux go build -trimpath -ldflags='-s -w -X github.com/aislehq/aisle/internal/version.Version=$(VERSION)' -o $(LOCALBIN)/linux/aisle ./cmd/aisle
	go run ./hack/image --binary $(LOCALBIN)/linux/aisle --tag $(IMAGE) --version $(VERSION) \
		--revision "$(REVISION)" --out $(IMAGE_TAR)

.PHONY: run
run: build k8s-binaries ## Start the whole system locally (aisle dev); writes dev-env.json.
	KUBEBUILDER_ASSETS="$(K8S_BIN)" $(LOCALBIN)/aisle dev

##@ Dependencies

.PHONY: browser-deps
browser-deps: test/browser/node_modules/.package-lock.json web/node_modules/.package-lock.json ## Install Debian's chromium, test/browser's playwright-core and axe-core, and web's esbuild when missing or stale (test/browser needs them).
	@[ -x /usr/bin/chromium ] || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; }
# npm ci again whenever a lockfile is newer than what it installed (the Events page's,
# test/browser's and web's packages).
%/node_modules/.package-lock.json: %/package-lock.json
	npm ci --prefix $* --no-audit --no-fund

.PHONY: k8s-binaries
k8s-binaries: ## Build etcd, kube-apiserver and kubectl into bin/k8s/<version>/ (reused when present).
	K8S_VERSION=$(K8S_VERSION) hack/build-k8s-binaries.sh "$(K8S_BIN)"

.PHONY: controller-gen
controller-gen: $(CONTROLLER_GEN)
$(CONTROLLER_GEN): | $(LOCALBIN)
	$(call go-install-tool,$(CONTROLLER_GEN),sigs.k8s.io/controller-tools/cmd/controller-gen,$(CONTROLLER_TOOLS_VERSION))

.PHONY: golangci-lint
golangci-lint: $(GOLANGCI_LINT)
$(GOLANGCI_LINT): | $(LOCALBIN)
	$(call go-install-tool,$(GOLANGCI_LINT),github.com/golangci/golangci-lint/v2/cmd/golangci-lint,$(GOLANGCI_LINT_VERSION))

.PHONY: helm
helm: $(HELM)
$(HELM): | $(LOCALBIN)
	$(call go-install-tool,$(HELM),helm.sh/helm/v3/cmd/helm,$(HELM_VERSION))

.PHONY: helm-docs
helm-docs: $(HELM_DOCS)
$(HELM_DOCS): | $(LOCALBIN)
	$(call go-install-tool,$(HELM_DOCS),github.com/norwoodj/helm-docs/cmd/helm-docs,$(HELM_DOCS_VERSION))

# go-install-tool builds a tool from its module at a pinned version into bin/, named with
# its version so a version bump rebuilds it.
define go-install-tool
@[ -f "$(1)" ] || { \
set -e; \
package=$(2)@$(3) ;\
echo "Building $${package}" ;\
rm -f "$(1)" ;\
GOBIN="$(LOCALBIN)" go install $${package} ;\
mv "$(LOCALBIN)/$$(basename "$(1)" | sed 's/-$(3)$$//')" "$(1)" ;\
}
endef
