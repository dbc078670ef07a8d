// Package browser runs public search from a real headless Chromium (Debian's chromium,
// driven by playwright-core from test/browser/package.json) against the whole system.
// Needs: apt-get install -y chromium; npm ci --prefix test/browser.
package browser

import (
	"context"
	"io"
	"log/slog"
	"net"
	"testing"

	"github.com/aislehq/aisle/internal/repo"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/devenv"
)

var (
	env    devenv.Env
	root   string
	cancel context.CancelFunc
	done   chan error
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
	assets, err := repo.AssetsDir(root)
	Expect(err).NotTo(HaveOccurred())
	dir := GinkgoT().TempDir()
	started := make(chan devenv.Env, 1)
	var ctx context.Context
	ctx, cancel = context.WithCancel(context.Background())
	done = make(chan error, 1)
	opts := devenv.Options{
		Root: root, DataDir: dir, Assets: assets, Workspace: "demo",
		Listen: freeAddr(), EngineAddr: freeAddr(), EnvFile: dir + "/dev-env.json",
		Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
		Started: func(e devenv.Env) { started <- e },
	}
	go func() { done <- devenv.Run(ctx, opts) }()
	select {
	case env = <-started:
	case err := <-done:
		Fail("the system stopped before it was ready: " + err.Error())
	}
})

var _ = AfterSuite(func() {
	if cancel != nil {
		cancel()
		Expect(<-done).To(Succeed())
	}
})

func freeAddr() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	defer l.Close()
	return l.Addr().String()
}
