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
		if _, err := objectKeys(b); err != nil {
			return fmt.Errorf("line %d: the source is not a JSON object: %v", n, err)
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

func bulkAction(b []byte) (string, error) {
	var line map[string]json.RawMessage
	if err := json.Unmarshal(b, &line); err != nil {
		return "", err
	}
	if len(line) != 1 {
		return "", fmt.Errorf("want one action, got %d keys", len(line))
	}
	for action, meta := range line {
		if !bulkActions[action] {
			return "", fmt.Errorf("unknown action [%s]", action)
		}
		keys, err := objectKeys(meta)
		if err != nil {
			return "", err
		}
		if k := firstOutside(keys, bulkMeta); k != "" {
			return "", fmt.Errorf("unknown parameter [%s]", k)
		}
		return action, nil
	}
	return "", nil
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
