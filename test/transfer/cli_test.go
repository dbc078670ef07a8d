package transfer

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/feedsample"
	"github.com/aislehq/aisle/test/aislebin"
)

var _ = Describe("The aisle binary", Ordered, func() {
	var bin string
	BeforeAll(func() {
		var err error
		bin, err = aislebin.Build()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(os.RemoveAll, filepath.Dir(bin))
	})

	run := func(args ...string) (string, string, error) {
		cmd := exec.Command(bin, args...)
		// The key comes from the environment, as a script keeps it out of its arguments.
		cmd.Env = append(os.Environ(), "AISLE_URL="+running.Env.BaseURL, "AISLE_WORKSPACE="+workspace, "AISLE_API_KEY="+key)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		return stdout.String(), stderr.String(), err
	}

	It("imports a feed file, naming a malformed item's line, then exports the catalog", func() {
		dir := GinkgoT().TempDir()
		var buf bytes.Buffer
		Expect(feedsample.WriteRSS(&buf, feedsample.Items(30, 5))).To(Succeed())
		// An item without its g:id, on the line after the channel's description (line 7).
		text := strings.Replace(buf.String(), "<item>\n<g:id>", "<item>\n<g:title>No id</g:title>\n</item>\n<item>\n<g:id>", 1)
		path := filepath.Join(dir, "products.xml")
		Expect(os.WriteFile(path, []byte(text), 0o644)).To(Succeed())
		_, stderr, err := run("import", "--index", "cli", "--batch-size", "10", "--feed", path)
		Expect(err).NotTo(HaveOccurred(), stderr)
		Expect(stderr).To(ContainSubstring("skipped line 7: id is required"))
		Expect(stderr).To(ContainSubstring("imported 30 records in 3 batches (1 lines skipped)"))

		out := filepath.Join(dir, "cli.ndjson")
		_, stderr, err = run("export", "--index", "cli", "--out", out)
		Expect(err).NotTo(HaveOccurred(), stderr)
		Expect(stderr).To(Equal("exported 30 records\n"))
		data, err := os.ReadFile(out)
		Expect(err).NotTo(HaveOccurred())
		Expect(strings.Count(string(data), "\n")).To(Equal(30))

		_, stderr, err = run("import", "--index", "cli", "--resume", out)
		Expect(err).NotTo(HaveOccurred(), stderr)
		Expect(stderr).To(ContainSubstring("imported 30 records in 1 batches"))
	})

	DescribeTable("refuses what it cannot do, saying why",
		func(want string, args ...string) {
			_, stderr, err := run(args...)
			Expect(err).To(HaveOccurred())
			Expect(stderr).To(ContainSubstring(want))
		},
		Entry("no index", "--index is required", "export"),
		Entry("a file and a feed", "give one file of records, or --feed and no file", "import", "--index", "copy", "--feed", "a.xml", "b.ndjson"),
		Entry("a batch too large", "batch size 5000: it must be 1 to 1000", "import", "--index", "copy", "--batch-size", "5000", "/dev/null"),
		Entry("an index the key does not reach", "403", "export", "--index", "products"),
	)
})
