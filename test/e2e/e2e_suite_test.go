package e2e

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/devenv"
	"github.com/aislehq/aisle/test/system"
)

// The end-to-end specs run the whole system as `aisle dev` does: a real kube-apiserver
// and etcd, the embedded engine, the operator and the API server, in this process.
var (
	env     devenv.Env
	running *system.Running
)

func TestEndToEnd(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "End to end")
}

var _ = BeforeSuite(func() {
	var err error
	running, err = system.Start(GinkgoT().TempDir())
	Expect(err).NotTo(HaveOccurred())
	env = running.Env
})

var _ = AfterSuite(func() {
	if running != nil {
		Expect(running.Stop()).To(Succeed())
	}
})
