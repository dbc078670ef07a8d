// Package doctemplate makes the text an embedder reads from a record: an openAI
// embedder's documentTemplate, "{{title}} by {{brand}}. {{description}}", with each
// {{path}} replaced by the record's value at that path.
package doctemplate

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A placeholder's path: field names of letters, digits, _ and -, nested with dots.
var pathPattern = regexp.MustCompile(`^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$`)

// Template is a parsed documentTemplate: literal text and paths, alternating.
type Template struct {
	parts []part
}

type part struct {
	text string
	path []string // nil for literal text
}

// Parse checks a documentTemplate: every {{ closed, each placeholder a field path, and
// at least one placeholder (a template of literal text gives every record one vector).
func Parse(src string) (Template, error) {
	var t Template
	rest := src
	for {
		open := strings.Index(rest, "{{")
		if open < 0 {
			if strings.Contains(rest, "}}") {
				return Template{}, fmt.Errorf("has a }} that closes no {{")
			}
			t.literal(rest)
			break
		}
		t.literal(rest[:open])
		end := strings.Index(rest[open+2:], "}}")
		if end < 0 {
			return Template{}, fmt.Errorf("has a {{ that is not closed by }}")
		}
		name := strings.TrimSpace(rest[open+2 : open+2+end])
		if !pathPattern.MatchString(name) {
			return Template{}, fmt.Errorf("{{%s}} is not a field path (letters, digits, _ and -, nested with dots)", name)
		}
		t.parts = append(t.parts, part{path: strings.Split(name, ".")})
		rest = rest[open+2+end+2:]
	}
	if len(t.Paths()) == 0 {
		return Template{}, fmt.Errorf("names no field: write at least one {{field}}")
	}
	return t, nil
}

func (t *Template) literal(s string) {
	if s != "" {
		t.parts = append(t.parts, part{text: s})
	}
}

// Paths are the template's field paths, in order.
func (t Template) Paths() []string {
	var out []string
	for _, p := range t.parts {
		if p.path != nil {
			out = append(out, strings.Join(p.path, "."))
		}
	}
	return out
}

// Render is the record's text, cut to at most maxBytes at a character's boundary and
// trimmed of surrounding space.
func (t Template) Render(record map[string]any, maxBytes int) string {
	var b strings.Builder
	for _, p := range t.parts {
		if p.path == nil {
			b.WriteString(p.text)
			continue
		}
		b.WriteString(valueText(lookup(record, p.path)))
	}
	return strings.TrimSpace(cut(b.String(), maxBytes))
}

func lookup(v any, path []string) any {
	for _, name := range path {
		obj, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = obj[name]
	}
	return v
}

// valueText: strings as they are, numbers and booleans as JSON spells them, arrays
// joined with ", ", objects and null empty (they have no one text).
func valueText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case []any:
		texts := make([]string, 0, len(x))
		for _, el := range x {
			if s := valueText(el); s != "" {
				texts = append(texts, s)
			}
		}
		return strings.Join(texts, ", ")
	}
	return ""
}

func cut(s string, maxBytes int) string {
	if maxBytes <= 0 || len(s) <= maxBytes {
		return s
	}
	s = s[:maxBytes]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
