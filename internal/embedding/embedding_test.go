package embedding_test

import (
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/catalog/catalogtest"
	"github.com/aislehq/aisle/internal/embedding"
)

// engineURL is the embedded engine the worker's specs embed into.
var engineURL string

func TestEmbedding(t *testing.T) {
	engineURL = catalogtest.StartEngine(t)
	RegisterFailHandler(Fail)
	RunSpecs(t, "embedding")
}

var base = searchv1alpha1.Embedder{Source: searchv1alpha1.EmbedderOpenAI, Dimensions: 8, Model: "m",
	DocumentTemplate: "{{title}}", DocumentTemplateMaxBytes: 400, URL: "http://a"}

var _ = DescribeTable("An embedder's fingerprint",
	func(change func(*searchv1alpha1.Embedder), same bool) {
		e := base
		change(&e)
		Expect(embedding.Fingerprint(e) == embedding.Fingerprint(base)).To(Equal(same))
	},
	Entry("changes with the model", func(e *searchv1alpha1.Embedder) { e.Model = "m2" }, false),
	Entry("changes with the dimensions", func(e *searchv1alpha1.Embedder) { e.Dimensions = 16 }, false),
	Entry("changes with the template", func(e *searchv1alpha1.Embedder) { e.DocumentTemplate = "{{name}}" }, false),
	Entry("changes with the bound", func(e *searchv1alpha1.Embedder) { e.DocumentTemplateMaxBytes = 100 }, false),
	Entry("changes with the server's URL (it may serve another model)", func(e *searchv1alpha1.Embedder) { e.URL = "http://b" }, false),
	Entry("changes with sending the dimensions", func(e *searchv1alpha1.Embedder) { e.SendDimensions = true }, false),
	Entry("not with the token", func(e *searchv1alpha1.Embedder) {
		e.APIKeySecret = &searchv1alpha1.SecretKeySelector{Name: "s"}
	}, true),
)

var _ = DescribeTable("What turns an embedder's texts into vectors",
	func(change func(*searchv1alpha1.Embedder), same bool) {
		e := base
		change(&e)
		Expect(embedding.VectorSource(e) == embedding.VectorSource(base)).To(Equal(same))
	},
	Entry("changes with the model", func(e *searchv1alpha1.Embedder) { e.Model = "m2" }, false),
	Entry("changes with the dimensions", func(e *searchv1alpha1.Embedder) { e.Dimensions = 16 }, false),
	Entry("changes with the server's URL", func(e *searchv1alpha1.Embedder) { e.URL = "http://b" }, false),
	Entry("changes with sending the dimensions", func(e *searchv1alpha1.Embedder) { e.SendDimensions = true }, false),
	Entry("not with the template: the same text keeps its vector", func(e *searchv1alpha1.Embedder) { e.DocumentTemplate = "{{name}}" }, true),
	Entry("not with the bound", func(e *searchv1alpha1.Embedder) { e.DocumentTemplateMaxBytes = 100 }, true),
)

var _ = Describe("A text's key", func() {
	It("is the same for the same text and fingerprint, and differs otherwise", func() {
		Expect(embedding.TextKey("f", "red hat")).To(Equal(embedding.TextKey("f", "red hat")))
		Expect(embedding.TextKey("f", "red hat")).NotTo(Equal(embedding.TextKey("g", "red hat")))
		Expect(embedding.TextKey("f", "red hat")).NotTo(Equal(embedding.TextKey("f", "red hats")))
	})
})

var _ = DescribeTable("An embedding lease is free",
	func(current string, deadline time.Time, want bool) {
		now := time.UnixMilli(1_000_000)
		Expect(embedding.Free(current, deadline.UnixMilli(), "me", now)).To(Equal(want))
	},
	Entry("when nobody holds it", "", time.UnixMilli(2_000_000), true),
	Entry("when the replica holds it", "me", time.UnixMilli(2_000_000), true),
	Entry("when another's deadline passed", "other", time.UnixMilli(999_999), true),
	Entry("not while another holds it", "other", time.UnixMilli(1_000_001), false),
)

var _ = Describe("The computed embedders of an index", func() {
	It("are its openAI embedders, by name, with their defaults", func() {
		s := searchv1alpha1.IndexSettings{Embedders: map[string]searchv1alpha1.Embedder{
			"b": {Source: searchv1alpha1.EmbedderOpenAI, Dimensions: 3, Model: "m", DocumentTemplate: "{{t}}"},
			"a": {Source: searchv1alpha1.EmbedderOpenAI, Dimensions: 3, Model: "m", DocumentTemplate: "{{t}}"},
			"u": {Source: searchv1alpha1.EmbedderUserProvided, Dimensions: 3},
		}}
		got := embedding.Computed(s)
		Expect(got).To(HaveLen(2))
		Expect(got[0].Name).To(Equal("a"))
		Expect(got[1].Name).To(Equal("b"))
		Expect(got[0].DocumentTemplateMaxBytes).To(Equal(int32(searchv1alpha1.DefaultDocumentTemplateMaxBytes)))
	})
})

var _ = DescribeTable("A pass after a renewal of its lease",
	func(renewed, lost bool, lastsPastNext, want bool) {
		now := time.Now()
		deadline := now.Add(-time.Second)
		if lastsPastNext {
			deadline = now.Add(2 * time.Second)
		}
		Expect(embedding.PassGoesOn(renewed, lost, deadline, now.Add(time.Second))).To(Equal(want))
	},
	Entry("goes on when renewed", true, false, true, true),
	Entry("stops when another replica holds the lease now", false, true, true, false),
	Entry("goes on after a failed renewal while the lease lasts past the next", false, false, true, true),
	Entry("stops after a failed renewal when the lease lapses before the next", false, false, false, false),
)
