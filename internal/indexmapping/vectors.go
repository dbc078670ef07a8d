package indexmapping

import (
	"maps"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// VectorsField holds a record's vectors, one per embedder: {"_vectors": {name: [...]}},
// as the record was written (Meilisearch's spelling). Each embedder's path is a
// dense_vector field, so a vector is checked and indexed like any other value.
const VectorsField = "_vectors"

// EmbedStateField holds, per openAI embedder, what its vector was computed from:
// {"_aisle_embed": {name: {"config": <Fingerprint>, "text": <hash of the text>}}}. A
// record written anew carries none, so the embedding worker finds it by this field.
const EmbedStateField = "_aisle_embed"

// EmbedConfigPath is the keyword field of the fingerprint an embedder's vector of the
// record was computed with.
func EmbedConfigPath(embedder string) string { return EmbedStateField + "." + embedder + ".config" }

// VectorPath is the field of an embedder's vectors.
func VectorPath(embedder string) string { return VectorsField + "." + embedder }

// Embedders are the index's embedders with their defaults spelled out (cosine), so that
// an unset similarity and cosine compare equal.
func Embedders(s searchv1alpha1.IndexSettings) map[string]searchv1alpha1.Embedder {
	if len(s.Embedders) == 0 {
		return nil
	}
	out := maps.Clone(s.Embedders)
	for name, e := range out {
		if e.Similarity == "" {
			e.Similarity = searchv1alpha1.SimilarityCosine
		}
		if e.Source == searchv1alpha1.EmbedderOpenAI && e.DocumentTemplateMaxBytes == 0 {
			e.DocumentTemplateMaxBytes = searchv1alpha1.DefaultDocumentTemplateMaxBytes
		}
		if k := e.APIKeySecret; k != nil && k.Key == "" {
			e.APIKeySecret = &searchv1alpha1.SecretKeySelector{Name: k.Name, Key: searchv1alpha1.DefaultAPIKeySecretKey}
		}
		out[name] = e
	}
	return out
}

// DefiningEmbedders are the embedders as far as they decide the index: where the
// server is, its token and whether the dimensions are sent do not (they rebuild
// nothing; a new url or sendDimensions re-embeds the records in place), the model, the
// dimensions and the template do.
func DefiningEmbedders(s searchv1alpha1.IndexSettings) map[string]searchv1alpha1.Embedder {
	out := Embedders(s)
	for name, e := range out {
		e.URL, e.APIKeySecret, e.SendDimensions = "", nil, false
		out[name] = e
	}
	return out
}

// vectorFields maps each embedder to a dense_vector field: int8 HNSW keeps the graph
// small (a byte per dimension) at a recall close to float's.
func vectorFields(s searchv1alpha1.IndexSettings) map[string]any {
	es := Embedders(s)
	if len(es) == 0 {
		return nil
	}
	props := map[string]any{}
	for name, e := range es {
		props[name] = map[string]any{
			"type": "dense_vector", "dims": e.Dimensions, "index": true,
			"similarity": string(e.Similarity), "index_options": map[string]any{"type": "int8_hnsw"},
		}
	}
	return map[string]any{"properties": props}
}

// embedStateFields maps each openAI embedder's state to two keywords (not searched as
// text: the worker compares them exactly).
func embedStateFields(s searchv1alpha1.IndexSettings) map[string]any {
	props := map[string]any{}
	for name, e := range Embedders(s) {
		if e.Source == searchv1alpha1.EmbedderOpenAI {
			props[name] = map[string]any{"properties": map[string]any{
				"config": map[string]any{"type": "keyword"}, "text": map[string]any{"type": "keyword"}}}
		}
	}
	if len(props) == 0 {
		return nil
	}
	return map[string]any{"properties": props}
}
