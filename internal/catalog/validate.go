package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"unicode/utf8"

	"github.com/aislehq/aisle/internal/indexmapping"
)

// Limits of the contract.
const (
	MaxPostRecords = 1000
	MaxPutRecords  = 100_000
	// MaxObjectIDBytes is Elasticsearch's limit on a document _id.
	MaxObjectIDBytes = 512
)

var idPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// Record is a validated record: its id and its JSON object.
type Record struct {
	ID  string
	Raw json.RawMessage
	// Place names the record in errors; "" names it by its position, records[i].
	Place string
}

// Invalid wraps ErrInvalid with a message for the client.
func Invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// ValidateRecords checks a request's records: between minN and maxN of them, each an
// object with a non-empty string objectID of at most 512 bytes and without the reserved
// version field. The error names the position of the first bad record.
func ValidateRecords(raw []json.RawMessage, minN, maxN int) ([]Record, error) {
	if len(raw) < minN || len(raw) > maxN {
		return nil, Invalid("records: expected %d to %d records, got %d", minN, maxN, len(raw))
	}
	out := make([]Record, len(raw))
	for i, r := range raw {
		rec, err := ValidateRecord(r)
		if err != nil {
			return nil, Invalid("records[%d]: %s", i, err)
		}
		out[i] = rec
	}
	return out, nil
}

// ValidateRecord checks one record; the error is the reason alone, without position.
func ValidateRecord(raw json.RawMessage) (Record, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return Record{}, fmt.Errorf("must be a JSON object")
	}
	// A map, not a struct: struct decoding matches field names case-insensitively.
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &fields); err != nil {
		return Record{}, fmt.Errorf("must be a JSON object")
	}
	idRaw, ok := fields[indexmapping.ObjectIDField]
	if !ok {
		return Record{}, fmt.Errorf("objectID must be a non-empty string")
	}
	var id string
	if err := json.Unmarshal(idRaw, &id); err != nil || id == "" {
		return Record{}, fmt.Errorf("objectID must be a non-empty string")
	}
	if len(id) > MaxObjectIDBytes {
		return Record{}, fmt.Errorf("objectID must be at most %d bytes", MaxObjectIDBytes)
	}
	for _, reserved := range []string{indexmapping.VersionField, indexmapping.EmbedStateField} {
		if _, ok := fields[reserved]; ok {
			return Record{}, fmt.Errorf("%s is a reserved field name", reserved)
		}
	}
	return Record{ID: id, Raw: trimmed}, nil
}

// ValidateObjectID checks an objectID taken from a path or a conditional write.
func ValidateObjectID(field, id string) error {
	if id == "" {
		return Invalid("%s must be a non-empty string", field)
	}
	if len(id) > MaxObjectIDBytes {
		return Invalid("%s must be at most %d bytes", field, MaxObjectIDBytes)
	}
	if !utf8.ValidString(id) {
		// Only a path can carry it (%FF): bodies are refused before.
		return Invalid("%s must be valid UTF-8", field)
	}
	return nil
}

// ValidateKey checks a stageId, batchId or idempotencyKey.
func ValidateKey(field, v string) error {
	if !idPattern.MatchString(v) {
		return Invalid("%s must be 1 to 64 characters: letters, digits, _ and -", field)
	}
	return nil
}

// withVersion returns the record's JSON with the version field added as its last member.
func WithVersion(raw json.RawMessage, version int64) []byte {
	body := bytes.TrimRight(raw, " \t\r\n")
	body = body[:len(body)-1] // the closing brace
	out := make([]byte, 0, len(body)+32)
	out = append(out, body...)
	if len(bytes.TrimSpace(body)) > 1 {
		out = append(out, ',')
	}
	out = append(out, `"`+indexmapping.VersionField+`":`...)
	out = strconv.AppendInt(out, version, 10)
	return append(out, '}')
}

// splitVersion removes the version field from a stored document, returning the record
// and the version it carried (0 when none: a replacement's record).
func splitVersion(src json.RawMessage) (json.RawMessage, int64, error) {
	fields, version, err := storedFields(src)
	if err != nil {
		return nil, 0, err
	}
	out, err := EncodeRecord(fields)
	return out, version, err
}

// storedFields is a stored document's record fields, without the version field and the
// embedders' state (a record rewritten from them is looked at again by the embedding
// worker, which reuses the vector if its text is unchanged), and the version it
// carried (0 when none).
func storedFields(src json.RawMessage) (map[string]json.RawMessage, int64, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(src, &fields); err != nil {
		return nil, 0, fmt.Errorf("decoding a stored record: %w", err)
	}
	var version int64
	if v, ok := fields[indexmapping.VersionField]; ok {
		if err := json.Unmarshal(v, &version); err != nil {
			return nil, 0, fmt.Errorf("decoding a stored record's version: %w", err)
		}
		delete(fields, indexmapping.VersionField)
	}
	delete(fields, indexmapping.EmbedStateField)
	return fields, version, nil
}
