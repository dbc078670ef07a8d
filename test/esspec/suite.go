package esspec

import (
	"context"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// SuiteBackend starts Backend for a Ginkgo suite, until it ends: call it from
// BeforeSuite. It returns the suite's context and a client on the recorder.
func SuiteBackend() (context.Context, *elasticsearch.TypedClient) {
	ginkgo.GinkgoHelper()
	ctx, cancel := context.WithCancel(context.Background())
	ginkgo.DeferCleanup(cancel)
	client, stop, err := Backend(ctx, ginkgo.GinkgoT().TempDir(), ginkgo.GinkgoWriter)
	gomega.Expect(err).NotTo(gomega.HaveOccurred())
	ginkgo.DeferCleanup(stop)
	return ctx, client
}
