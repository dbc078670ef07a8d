package history_test

import (
	"context"
	"testing"

	"github.com/elastic/go-elasticsearch/v8"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/test/esspec"
)

// The specs run against the tests' search backend, checked against Elasticsearch's
// specification (esspec.Backend).
var (
	esClient *elasticsearch.TypedClient
	ctx      context.Context
)

func TestHistory(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "History")
}

var _ = BeforeSuite(func() { ctx, esClient = esspec.SuiteBackend() })
