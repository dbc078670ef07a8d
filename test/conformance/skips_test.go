package conformance_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/test/conformance"
	"github.com/aislehq/aisle/test/conformance/yamlrest"
)

var _ = Describe("skip list", func() {
	It("has file, test and reason on every entry", func() {
		Expect(conformance.Validate(conformance.SkipList)).To(Succeed())
	})

	It("names only tests and steps that exist in the conformance files", func() {
		dir, err := conformance.Dir()
		Expect(err).NotTo(HaveOccurred())
		// The candidate files in force run too, and have entries of their own.
		files, err := loadFiles(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(conformance.Stale(files, conformance.SkipList)).To(BeEmpty())
	})

	It("selects whole tests, steps by key, and steps by line", func() {
		s := conformance.NewSkips([]conformance.Entry{
			{File: "f.yml", Test: "whole", Reason: "r1"},
			{File: "f.yml", Test: "t", Step: "match _type", Reason: "r2"},
			{File: "f.yml", Test: "t", Lines: [2]int{10, 12}, Reason: "r3"},
		})
		Expect(s.Skip("f.yml", "whole", nil)).To(Equal("r1"))
		Expect(s.Skip("f.yml", "t", nil)).To(BeEmpty())
		typ := yamlrest.Step{Op: "match", Arg: map[string]any{"_type": "_doc"}, Line: 3}
		id := yamlrest.Step{Op: "match", Arg: map[string]any{"_id": "1"}, Line: 4}
		Expect(s.Skip("f.yml", "t", &typ)).To(Equal("r2"))
		Expect(s.Skip("f.yml", "t", &id)).To(BeEmpty())
		id.Line = 11
		Expect(s.Skip("f.yml", "t", &id)).To(Equal("r3"))
		Expect(s.Unused()).To(BeEmpty())
	})

	It("names do steps by API, ignoring runner options", func() {
		st := yamlrest.Step{Op: "do", Arg: map[string]any{"catch": "missing", "get": map[string]any{}}}
		Expect(conformance.StepKeys(st)).To(Equal([]string{"do get"}))
	})
})
