GO ?= go
CONFORMANCE_PKG := ./test/conformance/

.PHONY: test conformance

# Every test; the conformance suite runs on its own, verbosely, so its
# per-folder table and "N passed, N failed, N skipped" line are printed.
test:
	$(GO) test $$($(GO) list ./... | grep -v '/test/conformance$$')
	$(MAKE) conformance

# Elasticsearch's YAML REST tests against the engine (AISLE_ES_URL to use a
# running server; ES_CONFORMANCE_DIR to read the files from elsewhere).
conformance:
	$(GO) test -count=1 -timeout 30m -v $(CONFORMANCE_PKG) -ginkgo.no-color
