// Package browser runs public search, shopper events and the Events page in a real
// headless Chromium (Debian's chromium, driven by playwright-core from
// test/browser/package.json) against the whole system.
// Needs: apt-get install -y chromium; npm ci --prefix test/browser; npm ci --prefix web
// (`make browser-deps`).
package browser

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/devenv"
	"github.com/aislehq/aisle/internal/repo"
	"github.com/aislehq/aisle/test/system"
)

var (
	env     devenv.Env
	root    string
	running *system.Running
)

func TestBrowser(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Browser")
}

var _ = BeforeSuite(func() {
	var err error
	root, err = repo.Root()
	Expect(err).NotTo(HaveOccurred())
	checkTools()
	running, err = system.Start(GinkgoT().TempDir())
	Expect(err).NotTo(HaveOccurred())
	env = running.Env
})

var _ = AfterSuite(func() {
	if running != nil {
		Expect(running.Stop()).To(Succeed())
	}
})
