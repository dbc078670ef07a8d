// Package highlight implements the `highlight` of a search as Elasticsearch 8's unified
// highlighter does: the field's text, analyzed with the field's analyzer, marked where the
// query matched (terms, phrases as one span, prefix and fuzzy expansions, synonyms) and
// cut into passages bounded by sentences and fragment_size.
package highlight

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/aislehq/aisle/internal/engine/esanalysis"
	"github.com/aislehq/aisle/internal/engine/eserr"
)

// Settings are the options a highlight request sets globally and per field.
type Settings struct {
	PreTag, PostTag   string
	HTML              bool // encoder: html
	FragmentSize      int
	Fragments         int // number_of_fragments; 0 highlights whole values
	NoMatchSize       int
	RequireFieldMatch bool
	ByScore           bool // order: score
	WordBoundaries    bool // boundary_scanner: word
	MaxAnalyzedOffset int  // 0: none
	Query             any  // highlight_query; nil: the search's query
}

// Field is one entry of `fields`: a name or a pattern, with its settings.
type Field struct {
	Name          string
	MatchedFields []string
	Settings
}

// Options is a parsed `highlight` object.
type Options struct {
	Fields []Field
}

var defaults = Settings{PreTag: "<em>", PostTag: "</em>", FragmentSize: 100, Fragments: 5, RequireFieldMatch: true}

// styledTags are the tags of tags_schema: styled.
const styledPre = `<em class="hlt1">`

// keys ES's parser knows: the settings this engine applies, and those only ES's plain
// and fvh highlighters read, which the unified highlighter ignores in ES as well.
var (
	commonKeys  = []string{"pre_tags", "post_tags", "tags_schema", "encoder", "fragment_size", "number_of_fragments", "no_match_size", "require_field_match", "order", "boundary_scanner", "boundary_scanner_locale", "max_analyzed_offset", "highlight_query", "type", "boundary_chars", "boundary_max_scan", "fragmenter", "force_source", "phrase_limit", "highlight_filter", "options"}
	globalKeys  = append([]string{"fields"}, commonKeys...)
	fieldKeys   = append([]string{"matched_fields", "fragment_offset"}, commonKeys...)
	ignoredKeys = []string{"boundary_chars", "boundary_max_scan", "boundary_scanner_locale", "fragmenter", "force_source", "phrase_limit", "highlight_filter", "options", "fragment_offset"}
)

// Parse reads a search's `highlight` object as ES's HighlightBuilder does.
func Parse(raw any) (*Options, error) {
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, eserr.XContentParse("[1:2] [highlight] highlight must be an object")
	}
	global := defaults
	if err := apply(&global, m, "highlight", globalKeys); err != nil {
		return nil, err
	}
	fields, err := fieldEntries(m["fields"])
	if err != nil {
		return nil, err
	}
	o := &Options{}
	for _, e := range fields {
		f := Field{Name: e.name, Settings: global}
		if err := apply(&f.Settings, e.body, "highlight_field", fieldKeys); err != nil {
			return nil, err
		}
		if mf, ok := e.body["matched_fields"]; ok {
			if f.MatchedFields, err = stringsOf("matched_fields", mf); err != nil {
				return nil, err
			}
		}
		o.Fields = append(o.Fields, f)
	}
	return o, nil
}

// Queries lists the highlight_query of the fields, once each.
func (o *Options) Queries() []any {
	var out []any
	seen := map[string]bool{}
	for _, f := range o.Fields {
		if f.Query == nil {
			continue
		}
		b, _ := json.Marshal(f.Query)
		if !seen[string(b)] {
			seen[string(b)] = true
			out = append(out, f.Query)
		}
	}
	return out
}

type fieldEntry struct {
	name string
	body map[string]any
}

// fieldEntries reads `fields`: an object, or an array of one-field objects to keep order.
func fieldEntries(v any) ([]fieldEntry, error) {
	var out []fieldEntry
	add := func(m map[string]any) error {
		for _, name := range slices.Sorted(maps.Keys(m)) {
			body, ok := m[name].(map[string]any)
			if !ok {
				return eserr.XContentParse("[1:2] [highlight_field] field [%s] must be an object", name)
			}
			out = append(out, fieldEntry{name, body})
		}
		return nil
	}
	switch x := v.(type) {
	case nil:
		return nil, eserr.IllegalArgument("[highlight] requires [fields]")
	case map[string]any:
		return out, add(x)
	case []any:
		for _, e := range x {
			m, ok := e.(map[string]any)
			if !ok || len(m) != 1 {
				return nil, eserr.XContentParse("[1:2] [highlight] fields array must be an array of objects with one field each")
			}
			if err := add(m); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return nil, eserr.XContentParse("[1:2] [highlight] [fields] must be an object or an array")
}

// apply overlays the settings an object sets on s; where names the parser in errors.
func apply(s *Settings, m map[string]any, where string, known []string) error {
	if err := checkTags(m); err != nil {
		return err
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(known, k) {
			return eserr.XContentParse("[1:2] [%s] unknown field [%s]", where, k)
		}
		if k == "fields" || k == "matched_fields" || slices.Contains(ignoredKeys, k) {
			continue
		}
		if err := set(s, k, m[k]); err != nil {
			return err
		}
	}
	return nil
}

// checkTags applies ES's rules on tags: none may be empty, and pre_tags need post_tags.
func checkTags(m map[string]any) error {
	pre, hasPre := m["pre_tags"]
	post, hasPost := m["post_tags"]
	for _, t := range []any{pre, post} {
		if l, ok := t.([]any); ok && len(l) == 0 {
			return eserr.IllegalArgument("pre_tags or post_tags must not be empty")
		}
	}
	if hasPre && !hasPost {
		return eserr.IllegalArgument("pre_tags are set but post_tags are not set")
	}
	return nil
}

func set(s *Settings, k string, v any) error {
	var err error
	switch k {
	case "pre_tags":
		s.PreTag, err = firstString(k, v)
	case "post_tags":
		s.PostTag, err = firstString(k, v)
	case "tags_schema":
		if v != "styled" {
			return eserr.IllegalArgument("Unknown tag schema [%v]", v)
		}
		s.PreTag, s.PostTag = styledPre, "</em>"
	case "encoder":
		s.HTML = v == "html"
	case "fragment_size":
		s.FragmentSize, err = intOf(k, v)
	case "number_of_fragments":
		if s.Fragments, err = intOf(k, v); err == nil && s.Fragments < 0 {
			return eserr.IllegalArgument("[number_of_fragments] must not be negative")
		}
	case "no_match_size":
		s.NoMatchSize, err = intOf(k, v)
	case "max_analyzed_offset":
		s.MaxAnalyzedOffset, err = intOf(k, v)
	case "require_field_match":
		s.RequireFieldMatch, err = boolOf(k, v)
	case "order":
		s.ByScore = v == "score"
	case "highlight_query":
		s.Query = v
	case "type":
		return checkType(v)
	case "boundary_scanner":
		return setBoundary(s, v)
	}
	return err
}

func checkType(v any) error {
	switch v {
	case "unified":
		return nil
	case "plain", "fvh":
		return eserr.IllegalArgument("highlighter type [%v] is not supported by this engine: use unified", v)
	}
	return eserr.IllegalArgument("unknown highlighter type [%v]", v)
}

func setBoundary(s *Settings, v any) error {
	switch v {
	case "sentence":
		s.WordBoundaries = false
	case "word":
		s.WordBoundaries = true
	case "chars":
		return eserr.IllegalArgument("unified highlighter doesn't support boundary_scanner [chars]")
	default:
		return eserr.IllegalArgument("Invalid boundary_scanner [%v]", v)
	}
	return nil
}

func firstString(k string, v any) (string, error) {
	l, err := stringsOf(k, v)
	if err != nil || len(l) == 0 {
		return "", err
	}
	return l[0], nil
}

func stringsOf(k string, v any) ([]string, error) {
	l, err := esanalysis.Strings(v)
	if err != nil {
		return nil, eserr.XContentParse("[1:2] [highlight] [%s] must be strings", k)
	}
	return l, nil
}

func intOf(k string, v any) (int, error) {
	s := fmt.Sprint(v)
	if n, ok := v.(json.Number); ok {
		s = n.String()
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, eserr.XContentParse("[1:2] [highlight] failed to parse field [%s]", k)
	}
	return n, nil
}

func boolOf(k string, v any) (bool, error) {
	switch v {
	case true, "true":
		return true, nil
	case false, "false":
		return false, nil
	}
	return false, eserr.XContentParse("[1:2] [highlight] failed to parse field [%s]", k)
}
