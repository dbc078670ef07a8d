package esmapping

import "strings"

// Rules of Elasticsearch on a document's field names, shared by the write path's checks
// and the engine.

// MaxDepth is ES's index.mapping.depth.limit at its default: an object whose path has
// MaxDepth or more parts takes an index past it (the root's fields are at depth 1, and
// each object adds one).
const MaxDepth = 20

// IsMetadataField reports the names of ES's metadata fields, which a document may not
// hold at its top level.
func IsMetadataField(name string) bool {
	switch name {
	case "_id", "_index", "_source", "_routing", "_seq_no", "_version", "_primary_term", "_field_names",
		"_ignored", "_ignored_source", "_nested_path", "_tier", "_doc_count", "_data_stream_timestamp":
		return true
	}
	return false
}

// BadDots reports a dotted name ES cannot resolve into objects: one starting or ending
// with a dot, or holding two in a row.
func BadDots(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".") || strings.Contains(name, "..")
}
