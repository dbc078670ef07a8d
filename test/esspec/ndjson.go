package esspec

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/aislehq/aisle/test/conformance/yamlrest"
)

// lineRules judge the lines of a newline-delimited body one at a time.
type lineRules interface {
	line(n int, b []byte) error
	end() error
}

func linesFor(api string) lineRules {
	switch api {
	case "bulk":
		return &bulkLines{}
	case "msearch":
		return &msearchLines{}
	}
	return anyObjects{}
}

// ndjsonBody holds only the line being received; it keeps the first refusal.
type ndjsonBody struct {
	api     *yamlrest.API
	lines   lineRules
	partial []byte
	n       int
	size    int
	err     error
}

func (b *ndjsonBody) Write(p []byte) (int, error) {
	b.size += len(p)
	rest := p
	for b.err == nil {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			b.partial = append(b.partial, rest...)
			break
		}
		line := rest[:i]
		if len(b.partial) > 0 {
			line = append(b.partial, line...)
		}
		b.n++
		b.err = b.lines.line(b.n, line)
		b.partial, rest = b.partial[:0], rest[i+1:]
	}
	return len(p), nil
}

func (b *ndjsonBody) Verdict() error {
	switch {
	case b.err != nil:
		return violation(b.api, "%v", b.err)
	case b.size == 0:
		return violation(b.api, "requires a body")
	case len(b.partial) > 0:
		return violation(b.api, "the body must be terminated by a newline [\\n]")
	}
	if err := b.lines.end(); err != nil {
		return violation(b.api, "%v", err)
	}
	return nil
}

// bulkLines: an action line (an object with one key, index, create, update or delete, whose
// value takes only ES's metadata keys), then a source object except after delete. ES skips
// an empty action line.
type bulkLines struct {
	wantSource bool
}

func (l *bulkLines) line(n int, b []byte) error {
	if l.wantSource {
		l.wantSource = false
		if !isObject(b) {
			return fmt.Errorf("line %d: the source is not a JSON object", n)
		}
		return nil
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	action, err := bulkAction(b)
	if err != nil {
		return fmt.Errorf("line %d: malformed action/metadata line: %v", n, err)
	}
	l.wantSource = action != "delete"
	return nil
}

func (l *bulkLines) end() error {
	if l.wantSource {
		return fmt.Errorf("the last action has no source line")
	}
	return nil
}

// bulkAction reads an action line: one key, the action, whose object takes only ES's
// metadata keys (BulkRequestParser answers "contains an unknown parameter" otherwise). It
// scans the bytes rather than decoding them, as a bulk has thousands of these lines.
func bulkAction(b []byte) (string, error) {
	if !isObject(b) {
		return "", fmt.Errorf("not a JSON object")
	}
	var action string
	var err error
	scanKeys(b, func(depth int, key string, value byte) {
		switch {
		case err != nil:
		case depth == 1 && action != "":
			err = fmt.Errorf("more than one action: [%s], [%s]", action, key)
		case depth == 1 && !bulkActions[key]:
			err = fmt.Errorf("unknown action [%s]", key)
		case depth == 1 && value != '{':
			err = fmt.Errorf("the action [%s] is not an object", key)
		case depth == 1:
			action = key
		case depth == 2 && !contains(bulkMeta, key):
			err = fmt.Errorf("unknown parameter [%s]", key)
		}
	})
	if err == nil && action == "" {
		err = fmt.Errorf("no action")
	}
	return action, err
}

// scanKeys calls fn with each object key of valid JSON b, its depth (1 for the top
// object's keys) and the first byte of its value.
func scanKeys(b []byte, fn func(depth int, key string, value byte)) {
	var inObject []bool // per open container: an object, or an array
	expectKey := false
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '{':
			inObject, expectKey = append(inObject, true), true
		case '[':
			inObject, expectKey = append(inObject, false), false
		case '}', ']':
			inObject = inObject[:len(inObject)-1]
		case ',':
			expectKey = len(inObject) > 0 && inObject[len(inObject)-1]
		case '"':
			end := stringEnd(b, i)
			if expectKey {
				fn(len(inObject), string(b[i+1:end]), valueStart(b, end+1))
				expectKey = false
			}
			i = end
		}
	}
}

// stringEnd is the index of the quote closing the string that opens at b[start].
func stringEnd(b []byte, start int) int {
	for i := start + 1; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return len(b) - 1
}

// valueStart is the first byte of the value after a key's closing quote.
func valueStart(b []byte, i int) byte {
	for ; i < len(b); i++ {
		if c := b[i]; c != ':' && c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return c
		}
	}
	return 0
}

// isObject reports whether b is one JSON object, cheaply: a bulk carries thousands of
// sources.
func isObject(b []byte) bool {
	b = bytes.TrimSpace(b)
	return len(b) > 0 && b[0] == '{' && json.Valid(b)
}

// msearchLines: a header object, then a search body, in turn.
type msearchLines struct {
	body bool
}

func (l *msearchLines) line(n int, b []byte) error {
	keys, err := objectKeys(b)
	if err != nil {
		return fmt.Errorf("line %d: not a JSON object: %v", n, err)
	}
	if l.body {
		if k := firstOutside(keys, searchKeys); k != "" {
			return fmt.Errorf("line %d: unknown search body key [%s]", n, k)
		}
	}
	l.body = !l.body
	return nil
}

func (l *msearchLines) end() error {
	if l.body {
		return fmt.Errorf("the last header has no search body")
	}
	return nil
}

// anyObjects holds other newline-delimited bodies to one JSON object a line.
type anyObjects struct{}

func (anyObjects) line(n int, b []byte) error {
	if _, err := objectKeys(b); err != nil {
		return fmt.Errorf("line %d: not a JSON object: %v", n, err)
	}
	return nil
}

func (anyObjects) end() error { return nil }
