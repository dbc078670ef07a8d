// Package indexmapping turns a SearchIndex's settings into the body that creates its physical
// Elasticsearch index: analysis settings and field mappings.
//
// Conventions the readers of the index rely on:
//   - A searchable field is "text" analysed for the index language (analyzer
//     AnalyzerText: Elasticsearch's analyzer of the language, accents folded), with an
//     exact "keyword" subfield, <path>.keyword, and a "words" subfield, <path>.words
//     (AnalyzerWords: lowercased and folded words, no stop words, no stemming), which the
//     query's typo and prefix variants match and highlighting marks.
//   - Every other field is mapped by Elasticsearch's dynamic mapping when first seen:
//     strings become text with a <path>.keyword subfield, numbers long or float, RFC 3339
//     strings date. So filters, facets and sorts use <path>.keyword for strings and <path>
//     for numbers and dates, whether or not the field is also searchable.
//   - With no searchable fields, every text field is searchable: the index's "default"
//     analyzer is the language analyzer (those fields have no words subfield).
//   - Synonyms are not part of the index: the query applies them.
//   - objectID is a keyword.
//   - The mapping's _meta.aisle records the settings hash the index was built from, so a
//     later rebuild can tell whether the settings changed.
package indexmapping

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/relevance"
)

// Analyzer and filter names defined in every index.
const (
	AnalyzerText  = "aisle_text"
	AnalyzerWords = "aisle_words"
	// KeywordSubfield is the exact-value subfield of text fields.
	KeywordSubfield = "keyword"
	// WordsSubfield is the subfield of searchable fields holding their words unstemmed.
	WordsSubfield = "words"
	// ObjectIDField is the record identifier.
	ObjectIDField = "objectID"
	// VersionField is the reserved field holding a record's version in its document:
	// records may not use it, and reads and hits strip it.
	VersionField = "aisleVersion"
	keywordLimit = 256
)

// Body is the request body of the index create call.
type Body struct {
	Settings map[string]any `json:"settings"`
	Mappings map[string]any `json:"mappings"`
	// Aliases are set by the caller to create the index with its alias in one call.
	Aliases map[string]any `json:"aliases,omitempty"`
}

// JSON returns the body encoded for the create call.
func (b Body) JSON() ([]byte, error) {
	return json.Marshal(b)
}

// Build derives the create body of a physical index from the settings.
func Build(s searchv1alpha1.IndexSettings) (Body, error) {
	hash, err := Hash(s)
	if err != nil {
		return Body{}, err
	}
	props := map[string]any{ObjectIDField: map[string]any{"type": "keyword"}}
	for _, f := range s.SearchableFields {
		if err := setPath(props, string(f.Path), textField()); err != nil {
			return Body{}, err
		}
	}
	if v := vectorFields(s); v != nil {
		props[VectorsField] = v
	}
	if v := embedStateFields(s); v != nil {
		props[EmbedStateField] = v
	}
	return Body{
		Settings: map[string]any{"analysis": analysis(s)},
		Mappings: map[string]any{
			"dynamic":    true,
			"_meta":      map[string]any{"aisle": map[string]any{"settingsHash": hash}},
			"properties": props,
		},
	}, nil
}

// Hash is a stable digest of what decides the physical index: the paths of the
// searchable fields, the language, the embedders (their vector fields), and the version of the mapping's layout (a release
// that changes the layout rebuilds every index once). Everything else (weights,
// filterable, facet and sortable fields, ranking, synonyms, typo tolerance, stop words)
// is applied at query time, so changing it needs no rebuild and leaves the hash as it is.
// Status keeps the hash so a rebuild can tell whether the current settings need a new
// physical index.
func Hash(s searchv1alpha1.IndexSettings) (string, error) {
	b, err := json.Marshal(indexDefining(s))
	if err != nil {
		return "", fmt.Errorf("encoding settings: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8]), nil
}

// layout is the version of what Build makes of the defining settings. 2: the words
// subfield, the language analyzers, and synonyms at query time.
const layout = 2

// definingSettings are the settings a physical index is built from.
type definingSettings struct {
	Searchable []string                `json:"searchable"`
	Language   searchv1alpha1.Language `json:"language"`
	Layout     int                     `json:"layout"`
	// Embedders are left out when none, so that an index without any keeps its hash.
	Embedders map[string]searchv1alpha1.Embedder `json:"embedders,omitempty"`
}

func indexDefining(s searchv1alpha1.IndexSettings) definingSettings {
	paths := make([]string, 0, len(s.SearchableFields))
	for _, f := range s.SearchableFields {
		paths = append(paths, string(f.Path))
	}
	sort.Strings(paths)
	return definingSettings{Searchable: paths, Language: relevance.Language(s), Layout: layout, Embedders: DefiningEmbedders(s)}
}

// NeedsRebuild reports whether moving from settings a to b changes the physical index.
func NeedsRebuild(a, b searchv1alpha1.IndexSettings) bool {
	ha, _ := Hash(a)
	hb, _ := Hash(b)
	return ha != hb
}

func textField() map[string]any {
	return map[string]any{
		"type":     "text",
		"analyzer": AnalyzerText,
		"fields": map[string]any{
			KeywordSubfield: map[string]any{"type": "keyword", "ignore_above": keywordLimit},
			WordsSubfield:   map[string]any{"type": "text", "analyzer": AnalyzerWords},
		},
	}
}

// setPath puts a leaf field at a dotted path, creating object properties on the way.
func setPath(props map[string]any, path string, leaf map[string]any) error {
	parts := strings.Split(path, ".")
	for _, p := range parts[:len(parts)-1] {
		obj, ok := props[p].(map[string]any)
		if !ok {
			obj = map[string]any{"properties": map[string]any{}}
			props[p] = obj
		}
		inner, ok := obj["properties"].(map[string]any)
		if !ok {
			return fmt.Errorf("field %q: %q is both a leaf and an object", path, p)
		}
		props = inner
	}
	last := parts[len(parts)-1]
	if existing, ok := props[last].(map[string]any); ok && existing["properties"] != nil {
		return fmt.Errorf("field %q is both a leaf and an object", path)
	}
	props[last] = leaf
	return nil
}
