// Package embedding is the system's work for openAI embedders: a background worker of
// the API server finds the records whose vector is missing or was computed from other
// settings, embeds their template text in batches, and writes the vectors with bulk
// updates guarded by each record's seq_no and primary term; searches embed their query
// through a cache. All state lives in Elasticsearch, so a restart or another replica
// loses nothing:
//
//   - beside each vector, a record holds _aisle_embed.<name>: the fingerprint of the
//     embedder's settings (model, dimensions, template, bound) and the hash of its text.
//     A record written anew carries none, and one rewritten from a stored copy (a
//     partial update) has it dropped by the catalog, so a missing or other fingerprint
//     is the worker's whole to-do list, and GET /indexing counts it;
//   - every vector computed is kept in the index's embeddings index by the hash of its
//     fingerprint and text, so a record written again with the same text takes its
//     vector from there, with no call to the embedder;
//   - a record rewritten while its vector was computed fails the update's
//     if_seq_no/if_primary_term, keeps its new content, and is found again on the next
//     pass. Two replicas embedding the same record write the same vector: at worst one
//     call too many, never a lost or stale vector.
package embedding

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// Fingerprint identifies what decides a record's vector of an embedder: what makes its
// vectors (VectorSource) and what makes its text (the template and its bound). A record
// whose state carries another fingerprint is embedded again.
func Fingerprint(e searchv1alpha1.Embedder) string {
	return digest([]any{VectorSource(e), e.DocumentTemplate, e.DocumentTemplateMaxBytes})
}

// VectorSource identifies what turns a text into a vector: the model, the dimensions and
// whether they are sent, and the server. The server counts because TEI and others serve
// the model they were started with whatever the request names, so a new url may be a
// new model (Meilisearch re-embeds on a url change for the same reason, for its REST
// embedders). The token does not. Kept vectors are keyed by it and the text, not by the
// template: a template change that leaves a record's text as it was costs no call.
func VectorSource(e searchv1alpha1.Embedder) string {
	return digest([]any{e.Model, e.Dimensions, e.SendDimensions, e.URL})
}

func digest(parts []any) string {
	b, _ := json.Marshal(parts)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// TextKey is the key of text's vector from source (VectorSource), in the embeddings
// index and in the record's state.
func TextKey(source, text string) string {
	sum := sha256.Sum256([]byte(source + "\x00" + text))
	return hex.EncodeToString(sum[:16])
}

// Computed are the index's openAI embedders (defaults spelled out), by name, in order.
func Computed(s searchv1alpha1.IndexSettings) []Named {
	es := indexmapping.Embedders(s)
	var out []Named
	for _, name := range slices.Sorted(maps.Keys(es)) {
		if es[name].Source == searchv1alpha1.EmbedderOpenAI {
			out = append(out, Named{Name: name, Embedder: es[name]})
		}
	}
	return out
}

// Named is an embedder with its name.
type Named struct {
	Name string
	searchv1alpha1.Embedder
}

// waitingQuery matches the records whose vector of embedder n is missing or stale.
func waitingQuery(n Named) map[string]any {
	return map[string]any{"bool": map[string]any{"must_not": []any{
		map[string]any{"term": map[string]any{indexmapping.EmbedConfigPath(n.Name): Fingerprint(n.Embedder)}},
	}}}
}

// stateDoc is the partial document a record's update sets: the vector (null when the
// text is empty: no vector to compare) and what it was computed from.
func stateDoc(name, fp, key string, vector []float32) map[string]any {
	var v any
	if vector != nil {
		v = vector
	}
	return map[string]any{
		indexmapping.VectorsField:    map[string]any{name: v},
		indexmapping.EmbedStateField: map[string]any{name: map[string]any{"config": fp, "text": key}},
	}
}

func checkDims(v []float32, dims int32) error {
	if len(v) != int(dims) {
		return fmt.Errorf("a kept vector of %d numbers, the embedder's dimensions are %d", len(v), dims)
	}
	return nil
}
