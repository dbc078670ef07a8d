package catalog

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/aislehq/aisle/internal/strictjson"
)

// MaxExportPage is the most records one page of GET /records holds.
const MaxExportPage = 1000

// ErrCursorExpired: the snapshot a cursor reads is gone, its pages idle for longer than
// ExportKeepAlive (or the engine restarted); the export starts again from its first page.
var ErrCursorExpired = errors.New("cursor expired: its snapshot was idle for more than 5 minutes; start again from the first page")

// errBadCursor refuses a cursor that no page of this index (and these filters) returned.
func errBadCursor() error { return Invalid("cursor is not one a page of GET /records returned") }

// Cursor is what the next page of an export needs: the point in time of its snapshot,
// the sort values of the last record read, the alias the snapshot was opened on and a
// hash of the filters it pages, which every page of it must repeat.
type Cursor struct {
	PIT     string            `json:"p"`
	After   []json.RawMessage `json:"a"`
	Alias   string            `json:"i"`
	Filters string            `json:"f"`
}

// cursorSumBytes is how much of a cursor's SHA-256 it carries: a cursor altered in
// transit or by hand fails it. What stops a cursor from reading another index is that the
// alias it names must be the request's, and the hits of its snapshot must be the alias's
// physical indices (see Export): a point in time id is 24 random bytes, never guessed.
const cursorSumBytes = 12

// Encode is the cursor's opaque text: base64url of its JSON and a checksum of it.
func (c Cursor) Encode() string {
	payload, _ := json.Marshal(c) // strings and raw JSON: never fails
	sum := sha256.Sum256(payload)
	return base64.RawURLEncoding.EncodeToString(append(sum[:cursorSumBytes], payload...))
}

// DecodeCursor reads a cursor Encode made; anything else is ErrInvalid.
func DecodeCursor(s string) (*Cursor, error) {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(raw) <= cursorSumBytes {
		return nil, errBadCursor()
	}
	sum, payload := raw[:cursorSumBytes], raw[cursorSumBytes:]
	if want := sha256.Sum256(payload); !bytes.Equal(sum, want[:cursorSumBytes]) {
		return nil, errBadCursor()
	}
	var c Cursor
	if strictjson.Decode(payload, &c) != nil || c.PIT == "" || c.Alias == "" || len(c.After) == 0 {
		return nil, errBadCursor()
	}
	return &c, nil
}

// ParseExportQuery reads GET /records' limit (default MaxExportPage) and cursor (nil
// for the first page).
func ParseExportQuery(limit, cursor string) (int, *Cursor, error) {
	n, err := ParseExportLimit(limit)
	if err != nil || cursor == "" {
		return n, nil, err
	}
	c, err := DecodeCursor(cursor)
	if err != nil {
		return 0, nil, err
	}
	return n, c, nil
}

// ParseExportLimit reads a page size, MaxExportPage when empty.
func ParseExportLimit(limit string) (int, error) {
	if limit == "" {
		return MaxExportPage, nil
	}
	n, err := strconv.Atoi(limit)
	if err != nil || n < 1 || n > MaxExportPage {
		return 0, Invalid("limit must be an integer from 1 to %d", MaxExportPage)
	}
	return n, nil
}

// filtersKey identifies an export's filters (the search clauses they became) so that a
// cursor pages only the filters its first page had.
func filtersKey(filters []any) string {
	if len(filters) == 0 {
		return ""
	}
	raw, _ := json.Marshal(filters) // decoded JSON values: never fails
	sum := sha256.Sum256(CanonicalJSON(raw))
	return base64.RawURLEncoding.EncodeToString(sum[:16])
}
