package searchlog_test

import (
	"context"
	"testing"

	"github.com/elastic/go-elasticsearch/v8"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/test/esspec"
)

// The specs run against the search backend of the tests (the embedded engine unless
// AISLE_ES_URL names a cluster), through a recorder that fails the suite when a
// request is outside Elasticsearch's specification.
var (
	esClient *elasticsearch.TypedClient
	ctx      context.Context
)

func TestSearchLog(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Search log")
}

var _ = BeforeSuite(func() { ctx, esClient = esspec.SuiteBackend() })
