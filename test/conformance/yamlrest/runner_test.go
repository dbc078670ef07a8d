package yamlrest_test

import (
	"context"
	"net/http/httptest"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/test/conformance/yamlrest"
)

// A small test file written for this self-test (not taken from ES).
const selfTestYAML = `
setup:
  - do:
      index: {index: test, id: "1", body: {foo: bar, n: 1}}
---
"Get the document":
  - do:
      get: {index: test, id: "1"}
  - match: {_source.foo: bar}
  - match: {_source.n: 1.0}
  - match: {_source: {foo: bar, n: 1}}
  - match: {_source.foo: /^b.r$/}
  - set: {_id: id}
  - match: {_id: $id}
  - is_true: found
  - is_false: _routing
  - length: {_source: 2}
  - gte: {_source.n: 1}
---
"Missing document":
  - do:
      catch: missing
      get: {index: test, id: "2"}
  - match: {found: false}
---
"Unknown parameter":
  - do:
      catch: param
      get: {index: test, id: "1", no_such_param: true}
---
"Skipped by version":
  - skip:
      version: "8.0.0 - "
      reason: runs only on 7.x
  - do: {get: {index: nope, id: "1"}}
---
"Needs an unsupported runner feature":
  - requires:
      test_runner_features: [no_such_feature]
  - do: {get: {index: nope, id: "1"}}
`

var _ = Describe("Runner against a fake server", func() {
	var (
		fake   *fakeES
		runner *yamlrest.Runner
		file   *yamlrest.File
	)

	BeforeEach(func(ctx context.Context) {
		fake = newFakeES()
		srv := httptest.NewServer(fake)
		DeferCleanup(srv.Close)
		specs := yamlrest.NewSpecs()
		for name, raw := range fakeSpecs {
			Expect(specs.Add(name, []byte(raw))).To(Succeed())
		}
		var err error
		runner, err = yamlrest.NewRunner(ctx, srv.URL, specs, nil, nil)
		Expect(err).NotTo(HaveOccurred())
		file, err = yamlrest.Parse("self/10_test.yml", selfTestYAML)
		Expect(err).NotTo(HaveOccurred())
		Expect(file.Tests).To(HaveLen(5))
	})

	run := func(ctx context.Context, name string) yamlrest.Result {
		for _, t := range file.Tests {
			if t.Name == name {
				return runner.Run(ctx, file, t)
			}
		}
		Fail("no test " + name)
		return yamlrest.Result{}
	}

	It("passes every test against correct responses and wipes indices after each", func(ctx context.Context) {
		for _, name := range []string{"Get the document", "Missing document", "Unknown parameter"} {
			res := run(ctx, name)
			Expect(res.Err).NotTo(HaveOccurred(), name)
			Expect(res.Status).To(Equal(yamlrest.Passed), name)
			Expect(fake.docs).To(BeEmpty(), "indices left after "+name)
		}
	})

	It("skips on version ranges and unsupported runner features, with the reason", func(ctx context.Context) {
		res := run(ctx, "Skipped by version")
		Expect(res.Status).To(Equal(yamlrest.Skipped))
		Expect(res.Reason).To(ContainSubstring("version 8.15.0 in skip range"))
		res = run(ctx, "Needs an unsupported runner feature")
		Expect(res.Status).To(Equal(yamlrest.Skipped))
		Expect(res.Reason).To(ContainSubstring("[no_such_feature] not supported"))
	})

	It("fails when the server returns a wrong value, naming step, request and response", func(ctx context.Context) {
		fake.break_ = "value"
		res := run(ctx, "Get the document")
		Expect(res.Status).To(Equal(yamlrest.Failed))
		Expect(res.Err.Error()).To(And(
			ContainSubstring("match"), ContainSubstring("_source.foo"),
			ContainSubstring("GET /test/_doc/1"), ContainSubstring(`"foo":"baz"`)))
	})

	It("fails when an expected error does not happen", func(ctx context.Context) {
		fake.break_ = "found"
		res := run(ctx, "Missing document")
		Expect(res.Status).To(Equal(yamlrest.Failed))
		Expect(res.Err.Error()).To(ContainSubstring("expected status 404, got 200"))
	})

	It("fails on an unexpected error status", func(ctx context.Context) {
		fake.break_ = "status"
		res := run(ctx, "Get the document")
		Expect(res.Status).To(Equal(yamlrest.Failed))
		Expect(res.Err.Error()).To(ContainSubstring("unexpected error status 500"))
	})
})
