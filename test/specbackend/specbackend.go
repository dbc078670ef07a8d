// Package specbackend starts the search backend of a Ginkgo suite: the tests' backend
// (the embedded engine unless AISLE_ES_URL names a cluster) behind a recorder that fails
// the suite when a request is outside Elasticsearch's specification.
package specbackend

import (
	"context"

	"github.com/elastic/go-elasticsearch/v8"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // a suite helper, called from BeforeSuite
	. "github.com/onsi/gomega"    //nolint:revive // a suite helper, called from BeforeSuite

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/test/esbackend"
	"github.com/aislehq/aisle/test/esspec"
)

// Start starts the backend and its recorder until the suite ends, and returns a
// client through the recorder. Call it from BeforeSuite.
func Start(ctx context.Context) *elasticsearch.TypedClient {
	GinkgoHelper()
	url, stop, err := esbackend.Start(ctx, GinkgoT().TempDir())
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(stop)
	recorder, err := esspec.Record(url, GinkgoWriter)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(recorder.Close)
	client, err := es.New(recorder.URL())
	Expect(err).NotTo(HaveOccurred())
	return client
}
