// Package eserr models Elasticsearch's JSON error shape so every failure the engine
// reports looks exactly like the one a real cluster would send.
package eserr

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
)

// Error is one Elasticsearch exception: a type such as index_not_found_exception, a reason,
// optional extra metadata fields (index, resource.id, ...), and an optional cause.
type Error struct {
	Status   int
	Type     string
	Reason   string
	Meta     map[string]any
	CausedBy *Error
	// RootCause overrides the root_cause list; by default it holds the innermost cause.
	RootCause []*Error
}

func (e *Error) Error() string { return e.Type + ": " + e.Reason }

// New builds an error of the given status, type and formatted reason.
func New(status int, typ, format string, args ...any) *Error {
	return &Error{Status: status, Type: typ, Reason: fmt.Sprintf(format, args...)}
}

// With adds a metadata field and returns the error for chaining.
func (e *Error) With(key string, val any) *Error {
	if e.Meta == nil {
		e.Meta = map[string]any{}
	}
	e.Meta[key] = val
	return e
}

// Body renders the error as the inner object of ES's error response.
func (e *Error) Body() map[string]any {
	m := map[string]any{"type": e.Type, "reason": e.Reason}
	for k, v := range e.Meta {
		m[k] = v
	}
	if e.CausedBy != nil {
		m["caused_by"] = e.CausedBy.Body()
	}
	return m
}

// MarshalJSON renders the full response shape with ES's key order (root_cause, type,
// reason, metadata, caused_by): clients and tests match error text by regular expression.
func (e *Error) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"error":`)
	roots := e.RootCause
	if roots == nil {
		root := e
		for root.CausedBy != nil && root.Type == "search_phase_execution_exception" {
			root = root.CausedBy
		}
		roots = []*Error{root}
	}
	e.writeBody(&b, roots, true)
	fmt.Fprintf(&b, `,"status":%d}`, e.Status)
	return b.Bytes(), nil
}

// BodyJSON renders the error object alone (for bulk items and mget entries), ordered.
func (e *Error) BodyJSON() json.RawMessage {
	var b bytes.Buffer
	e.writeBody(&b, nil, false)
	return b.Bytes()
}

// BodyWithRootsJSON renders the error object with its own root_cause list (mget entries).
func (e *Error) BodyWithRootsJSON() json.RawMessage {
	var b bytes.Buffer
	e.writeBody(&b, []*Error{e}, true)
	return b.Bytes()
}

func (e *Error) writeBody(b *bytes.Buffer, roots []*Error, withRoots bool) {
	b.WriteByte('{')
	if withRoots {
		b.WriteString(`"root_cause":[`)
		for i, r := range roots {
			if i > 0 {
				b.WriteByte(',')
			}
			r.writeBody(b, nil, false)
		}
		b.WriteString(`],`)
	}
	typ, _ := json.Marshal(e.Type)
	reason, _ := json.Marshal(e.Reason)
	fmt.Fprintf(b, `"type":%s,"reason":%s`, typ, reason)
	keys := make([]string, 0, len(e.Meta))
	for k := range e.Meta {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(e.Meta[k])
		if err != nil {
			vb = []byte("null")
		}
		fmt.Fprintf(b, `,%s:%s`, kb, vb)
	}
	if e.CausedBy != nil {
		b.WriteString(`,"caused_by":`)
		e.CausedBy.writeBody(b, nil, false)
	}
	b.WriteByte('}')
}

// As converts any error into an *Error, mapping unknown errors to a 500.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return New(http.StatusInternalServerError, "exception", "%s", err.Error())
}

// IndexNotFound is ES's 404 for a missing index or alias.
func IndexNotFound(name string) *Error {
	return New(404, "index_not_found_exception", "no such index [%s]", name).
		With("resource.type", "index_or_alias").With("resource.id", name).
		With("index_uuid", "_na_").With("index", name)
}

// IllegalArgument is the common 400.
func IllegalArgument(format string, args ...any) *Error {
	return New(400, "illegal_argument_exception", format, args...)
}

// Parsing is the 400 ES returns for malformed request bodies and unknown query types.
func Parsing(format string, args ...any) *Error {
	return New(400, "parsing_exception", format, args...)
}

// XContentParse is the 400 for JSON that cannot be parsed at all.
func XContentParse(format string, args ...any) *Error {
	return New(400, "x_content_parse_exception", format, args...)
}

// MapperParsing is the 400 for invalid mappings.
func MapperParsing(format string, args ...any) *Error {
	return New(400, "mapper_parsing_exception", format, args...)
}

// DocumentParsing is the 400 for a document whose values do not fit the mapping.
func DocumentParsing(format string, args ...any) *Error {
	return New(400, "document_parsing_exception", format, args...)
}

// ActionValidation is ES's request validation error; the reason lists numbered problems.
func ActionValidation(problem string) *Error {
	return New(400, "action_request_validation_exception", "Validation Failed: 1: %s;", problem)
}

// SearchPhase wraps a shard-level failure like ES does: "all shards failed".
func SearchPhase(cause *Error) *Error {
	e := New(cause.Status, "search_phase_execution_exception", "all shards failed")
	e = e.With("phase", "query").With("grouped", true)
	e = e.With("failed_shards", []any{map[string]any{"shard": 0, "index": cause.Meta["index"], "node": "aisle-node", "reason": cause.Body()}})
	e.CausedBy = cause
	return e
}

// VersionConflict is the 409 for failed compare-and-set and op_type=create on an existing id.
func VersionConflict(index, uuid, id, detail string) *Error {
	return New(409, "version_conflict_engine_exception", "[%s]: version conflict, %s", id, detail).
		With("index_uuid", uuid).With("shard", "0").With("index", index)
}

// WithReason replaces the reason (used where ES specialises a standard exception's text).
func (e *Error) WithReason(reason string) *Error {
	e.Reason = reason
	return e
}
