package conformance_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/test/conformance"
	"github.com/aislehq/aisle/test/conformance/yamlrest"
)

// URLEnv points the suite at an already running server instead of the
// in-process engine.
const URLEnv = "AISLE_ES_URL"

// startEngine starts the in-process engine; engine_test.go sets it. It
// returns the base URL and a stop function.
var startEngine func() (string, func() error, error)

var (
	runner *yamlrest.Runner
	skips  = conformance.NewSkips(conformance.SkipList)
	tally  = conformance.NewTally()
	stop   = func() error { return nil }
)

func TestConformance(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Elasticsearch YAML REST conformance")
}

// startRunner finds the files and the server and asks it for its version.
func startRunner(ctx SpecContext) {
	Expect(conformance.Validate(conformance.SkipList)).To(Succeed())
	dir, err := conformance.Dir()
	Expect(err).NotTo(HaveOccurred())
	specs, err := conformance.LoadSpecs(dir)
	Expect(err).NotTo(HaveOccurred())
	url := os.Getenv(URLEnv)
	if url == "" {
		Expect(startEngine).NotTo(BeNil(), "set %s or build with the in-process engine (engine_test.go)", URLEnv)
		url, stop, err = startEngine()
		Expect(err).NotTo(HaveOccurred())
	}
	runner, err = yamlrest.NewRunner(ctx, url, specs, conformance.ClusterFeatures, skips)
	Expect(err).NotTo(HaveOccurred())
	// Start from an empty server, as ES's runner does.
	Expect(runner.Wipe(ctx)).To(Succeed())
}

// finish prints the counts, reports stale skip entries and stops the engine.
func finish() {
	tally.Print(os.Stdout, len(conformance.SkipList))
	if unused := skips.Unused(); runner != nil && len(unused) > 0 && !focused() {
		Fail("skip-list entries that match no test or step: " + strings.TrimSpace(formatEntries(unused)))
	}
	Expect(stop()).To(Succeed())
}

// focused reports whether only part of the suite ran, in which case unused
// skip entries are expected.
func focused() bool {
	cfg, _ := GinkgoConfiguration()
	return len(cfg.FocusStrings) > 0 || len(cfg.SkipStrings) > 0 || len(cfg.FocusFiles) > 0 || len(cfg.LabelFilter) > 0
}

func formatEntries(es []conformance.Entry) string {
	var sb strings.Builder
	for _, e := range es {
		sb.WriteString("\n  " + e.File + " / " + e.Test + " / " + e.Step)
	}
	return sb.String()
}

// Ordered: the tests share one server, and a failure to start it fails
// every test here (not the unit tests of this package); ContinueOnFailure
// keeps one failing test from skipping the rest.
var _ = Describe("Elasticsearch YAML REST tests", Ordered, ContinueOnFailure, func() {
	BeforeAll(startRunner)
	AfterAll(finish)
	dir, err := conformance.Dir()
	if err != nil {
		It("finds the conformance files", func() { Fail(err.Error()) })
		return
	}
	files, err := loadFiles(dir)
	if err != nil {
		It("parses the conformance files", func() { Fail(err.Error()) })
		return
	}
	for _, f := range files {
		for _, t := range f.Tests {
			f, t := f, t
			It(strings.TrimSuffix(f.Name, ".yml")+"/"+t.Name, func(ctx SpecContext) {
				runTest(ctx, f, t)
			})
		}
	}
})

// loadFiles parses test/ and the candidate files in force.
func loadFiles(dir string) ([]*yamlrest.File, error) {
	files, err := yamlrest.LoadDir(filepath.Join(dir, "test"))
	if err != nil {
		return nil, err
	}
	paths, err := conformance.CandidatePaths(dir)
	if err != nil {
		return nil, err
	}
	for _, p := range paths {
		f, err := yamlrest.LoadFile(p)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

func runTest(ctx context.Context, f *yamlrest.File, t *yamlrest.Section) {
	Expect(runner).NotTo(BeNil(), "the runner did not start")
	res := runner.Run(ctx, f, t)
	tally.Add(f.Folder, res)
	for _, s := range res.SkippedSteps {
		GinkgoWriter.Println("skipped step " + s)
	}
	switch res.Status {
	case yamlrest.Skipped:
		Skip(res.Reason)
	case yamlrest.Failed:
		Fail(res.Err.Error())
	}
}
