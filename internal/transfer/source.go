package transfer

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/aislehq/aisle/internal/indexmapping"
	"io"
	"regexp"
	"strings"
)

// Item is one record read from an input, with the line it starts on.
type Item struct {
	Line   int
	Record json.RawMessage
}

// LineError is an input line that holds no usable record: it is reported and skipped.
type LineError struct {
	Line   int
	Reason string
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Reason) }

// Source yields records in input order. Next returns io.EOF at the end, a *LineError for
// a line to skip (the next call goes on after it), and any other error for an input
// that cannot be read further.
type Source interface {
	Next() (Item, error)
}

// ndjsonSource reads one JSON object a line; blank lines are ignored.
type ndjsonSource struct {
	r    *bufio.Reader
	line int
}

// NewNDJSON reads records from newline-delimited JSON.
func NewNDJSON(r io.Reader) Source { return &ndjsonSource{r: bufio.NewReaderSize(r, 1<<20)} }

func (s *ndjsonSource) Next() (Item, error) {
	for {
		raw, err := s.r.ReadBytes('\n')
		if len(raw) == 0 && err != nil {
			if errors.Is(err, io.EOF) {
				return Item{}, io.EOF
			}
			return Item{}, fmt.Errorf("line %d: %w", s.line+1, err)
		}
		s.line++
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 {
			continue
		}
		if reason := checkRecord(raw); reason != "" {
			return Item{}, &LineError{Line: s.line, Reason: reason}
		}
		return Item{Line: s.line, Record: json.RawMessage(raw)}, nil
	}
}

// checkRecord says what keeps a line from being a record, or "" when it is one.
func checkRecord(raw []byte) string {
	if raw[0] != '{' {
		return "not a JSON object"
	}
	var head struct {
		ObjectID json.RawMessage `json:"objectID"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return "not valid JSON: " + err.Error()
	}
	var id string
	if len(head.ObjectID) == 0 || json.Unmarshal(head.ObjectID, &id) != nil || id == "" {
		return "objectID must be a non-empty string"
	}
	return ""
}

// csvSource reads a header row of field names, then one record a row.
type csvSource struct {
	r      *csv.Reader
	header []string
	id     int // position of the objectID column
}

// NewCSV reads records from CSV whose first row names the fields; an objectID column
// is required. Values are typed by CSVValue.
func NewCSV(r io.Reader) (Source, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = 0 // every row as long as the header: a short row is a LineError
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("reading the CSV header: %w", err)
	}
	id := -1
	seen := map[string]bool{}
	for i, name := range header {
		name = strings.TrimSpace(strings.TrimPrefix(name, "\ufeff"))
		header[i] = name
		switch {
		case name == "":
			return nil, fmt.Errorf("CSV header: column %d has no name", i+1)
		case seen[name]:
			return nil, fmt.Errorf("CSV header: column %q appears twice", name)
		case name == indexmapping.ObjectIDField:
			id = i
		}
		seen[name] = true
	}
	if id < 0 {
		return nil, errors.New("CSV header: an objectID column is required")
	}
	return &csvSource{r: cr, header: header, id: id}, nil
}

func (s *csvSource) Next() (Item, error) {
	row, err := s.r.Read()
	line, _ := s.r.FieldPos(0)
	if errors.Is(err, io.EOF) {
		return Item{}, io.EOF
	}
	if errors.Is(err, csv.ErrFieldCount) {
		return Item{}, &LineError{Line: line, Reason: fmt.Sprintf("%d values for %d columns", len(row), len(s.header))}
	}
	if err != nil {
		return Item{}, fmt.Errorf("CSV: %w", err)
	}
	rec, reason := csvRecord(s.header, s.id, row)
	if reason != "" {
		return Item{}, &LineError{Line: line, Reason: reason}
	}
	return Item{Line: line, Record: rec}, nil
}

// csvRecord builds the record of one row: objectID first, then the other columns in
// header order, empty values left out.
func csvRecord(header []string, id int, row []string) (json.RawMessage, string) {
	if row[id] == "" {
		return nil, "objectID must be a non-empty string"
	}
	var b bytes.Buffer
	b.WriteString(`{"` + indexmapping.ObjectIDField + `":`)
	writeJSON(&b, row[id])
	for i, name := range header {
		v, ok := CSVValue(row[i])
		if i == id || !ok {
			continue
		}
		b.WriteByte(',')
		writeJSON(&b, name)
		b.WriteByte(':')
		writeJSON(&b, v)
	}
	b.WriteByte('}')
	return b.Bytes(), ""
}

func writeJSON(b *bytes.Buffer, v any) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // strings, numbers, booleans and their slices always encode
	b.Truncate(b.Len() - 1)
}

// jsonNumber is JSON's number grammar: "007" and "+1" are not numbers, so they stay text.
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// CSVValue types one CSV value: empty is no value (ok false); a value holding "|" is an
// array of its parts, each typed alone; true and false are booleans; a JSON number is a
// number; anything else is a string.
func CSVValue(s string) (any, bool) {
	if s == "" {
		return nil, false
	}
	if strings.Contains(s, "|") {
		parts := strings.Split(s, "|")
		out := make([]any, len(parts))
		for i, p := range parts {
			out[i] = scalar(p)
		}
		return out, true
	}
	return scalar(s), true
}

func scalar(s string) any {
	switch {
	case s == "true":
		return true
	case s == "false":
		return false
	case jsonNumber.MatchString(s):
		return json.Number(s)
	}
	return s
}
