package rebuild

import (
	"encoding/json"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

func TestRebuildSpecs(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "rebuild")
}

// The target keeps "bge" (openAI, 3 dimensions) and "own" (userProvided, 2).
var keptByTarget = vectorsOf(searchv1alpha1.IndexSettings{Embedders: map[string]searchv1alpha1.Embedder{
	"bge": {Source: searchv1alpha1.EmbedderOpenAI, Dimensions: 3, Model: "m", DocumentTemplate: "{{t}}"},
	"own": {Source: searchv1alpha1.EmbedderUserProvided, Dimensions: 2},
}})

var _ = DescribeTable("What of a record's vectors a rebuild copies",
	func(src, want string) {
		got, err := keepVectors(json.RawMessage(src), keptByTarget)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got)).To(MatchJSON(want))
	},
	Entry("a record without vectors, as it is", `{"objectID": "a", "t": "x & <y>"}`, `{"objectID": "a", "t": "x & <y>"}`),
	Entry("the vectors and states of the target's embedders",
		`{"objectID": "a", "_vectors": {"bge": [1, 2, 3], "own": [1, 0]}, "_aisle_embed": {"bge": {"config": "f", "text": "k"}}}`,
		`{"objectID": "a", "_vectors": {"bge": [1, 2, 3], "own": [1, 0]}, "_aisle_embed": {"bge": {"config": "f", "text": "k"}}}`),
	Entry("a removed embedder's vector and state left out",
		`{"objectID": "a", "_vectors": {"bge": [1, 2, 3], "old": [1, 1]}, "_aisle_embed": {"bge": {"config": "f"}, "old": {"config": "g"}}}`,
		`{"objectID": "a", "_vectors": {"bge": [1, 2, 3]}, "_aisle_embed": {"bge": {"config": "f"}}}`),
	Entry("the fields themselves when nothing is left",
		`{"objectID": "a", "_vectors": {"old": [1, 1]}, "_aisle_embed": {"old": {"config": "g"}}}`,
		`{"objectID": "a"}`),
	Entry("a vector of other dimensions than its embedder's now, with its state",
		`{"objectID": "a", "_vectors": {"bge": [1, 2], "own": [1, 2, 3]}, "_aisle_embed": {"bge": {"config": "f"}}}`,
		`{"objectID": "a"}`),
	Entry("the null vector of an empty text, with its state",
		`{"objectID": "a", "_vectors": {"bge": null}, "_aisle_embed": {"bge": {"config": "f"}}}`,
		`{"objectID": "a", "_vectors": {"bge": null}, "_aisle_embed": {"bge": {"config": "f"}}}`),
	Entry("a state for an embedder that is now userProvided",
		`{"objectID": "a", "_vectors": {"own": [1, 2]}, "_aisle_embed": {"own": {"config": "f"}}}`,
		`{"objectID": "a", "_vectors": {"own": [1, 2]}}`),
)

var _ = Describe("A rebuild's copy of a record", func() {
	It("keeps the record's text byte for byte when it drops a vector", func() {
		got, err := keepVectors(json.RawMessage(`{"t": "a & <b>", "_vectors": {"old": [1, 1]}}`), keptByTarget)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got)).To(Equal(`{"t":"a & <b>"}`))
	})

	It("maps no field of the vectors or states from the source: the settings define them", func() {
		have := map[string]any{"name": map[string]any{"type": "text"}, "_vectors": map[string]any{"properties": map[string]any{
			"bge": map[string]any{"type": "dense_vector", "dims": 3}}}}
		live := map[string]any{"name": map[string]any{"type": "text"}, "color": map[string]any{"type": "keyword"},
			"_vectors":     map[string]any{"properties": map[string]any{"old": map[string]any{"type": "dense_vector", "dims": 2}}},
			"_aisle_embed": map[string]any{"properties": map[string]any{"old": map[string]any{}}}}
		Expect(missingTopProps(have, live)).To(Equal(map[string]any{"color": map[string]any{"type": "keyword"}}))
	})
})

// BenchmarkKeepVectors is the copy's cost per record holding a 512-dimension vector
// it keeps, alone or beside one of a removed embedder it drops.
func BenchmarkKeepVectors(b *testing.B) {
	keep := vectorsOf(searchv1alpha1.IndexSettings{Embedders: map[string]searchv1alpha1.Embedder{
		"use": {Source: searchv1alpha1.EmbedderUserProvided, Dimensions: 512}}})
	vec := make([]float32, 512)
	for i := range vec {
		vec[i] = float32(i%7) / 7
	}
	for name, vectors := range map[string]map[string]any{
		"kept": {"use": vec}, "dropping": {"use": vec, "old": vec[:8]},
	} {
		src, err := json.Marshal(map[string]any{"objectID": "a", "name": "red shoe", "brand": "acme", "_vectors": vectors})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, err := keepVectors(src, keep); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
