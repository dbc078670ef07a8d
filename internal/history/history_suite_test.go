package history_test

import (
	"context"
	"testing"

	"github.com/elastic/go-elasticsearch/v8"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/test/specbackend"
)

// The specs run against the tests' search backend, checked against Elasticsearch's
// specification (test/specbackend).
var (
	esClient *elasticsearch.TypedClient
	ctx      context.Context
)

func TestHistory(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "History")
}

var _ = BeforeSuite(func() {
	var cancel context.CancelFunc
	ctx, cancel = context.WithCancel(context.Background())
	DeferCleanup(cancel)
	esClient = specbackend.Start(ctx)
})
