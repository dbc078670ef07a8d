package searchquery

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/aislehq/aisle/internal/indexmapping"
)

// Kind is what the index's mapping made of a field.
type Kind string

// Kinds of fields, as /fields reports them.
const (
	// KindUnknown: not in the mapping (no record has held the field yet).
	KindUnknown Kind = ""
	// KindString: text with a .keyword subfield (or a plain keyword).
	KindString Kind = "string"
	KindNumber Kind = "number"
	KindDate   Kind = "date"
	KindBool   Kind = "boolean"
	// KindOther: types Aisle does not filter on (geo_point, binary, ...).
	KindOther Kind = "other"
)

// Field is one leaf of the mapping.
type Field struct {
	Path string
	Kind Kind
	// Type is the field's type in the mapping (long, keyword, ...).
	Type string
	// Keyword is the field holding exact values, for filters, facets and sorts.
	Keyword string
	// Words: a text field with the words subfield of searchable fields (an index built
	// before it existed has none until its rebuild).
	Words bool
}

// HasValues reports a field whose exact values can be sorted and counted: a string
// with an exact-value field, a number, a date or a boolean.
func (f Field) HasValues() bool {
	return f.Kind != KindOther && f.Kind != KindUnknown && f.Keyword != ""
}

// Schema is the mapping of a physical index, by dotted leaf path.
type Schema map[string]Field

// ParseMapping reads the answer of GET <index>/_mapping (one or more indices; the first
// in name order wins for a path) into a Schema.
func ParseMapping(raw []byte) (Schema, error) {
	var byIndex map[string]struct {
		Mappings struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"mappings"`
	}
	if err := json.Unmarshal(raw, &byIndex); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(byIndex))
	for n := range byIndex {
		names = append(names, n)
	}
	sort.Strings(names)
	s := Schema{}
	for _, n := range names {
		if err := s.walk("", byIndex[n].Mappings.Properties); err != nil {
			return nil, err
		}
	}
	return s, nil
}

type property struct {
	Type       string                     `json:"type"`
	Properties map[string]json.RawMessage `json:"properties"`
	Fields     map[string]struct {
		Type string `json:"type"`
	} `json:"fields"`
}

func (s Schema) walk(prefix string, props map[string]json.RawMessage) error {
	for name, raw := range props {
		var p property
		if err := json.Unmarshal(raw, &p); err != nil {
			return err
		}
		path := prefix + name
		if p.Properties != nil && (p.Type == "" || p.Type == "object" || p.Type == "nested") {
			if err := s.walk(path+".", p.Properties); err != nil {
				return err
			}
			continue
		}
		if path == indexmapping.VersionField || strings.HasPrefix(path, "_") {
			continue
		}
		if _, seen := s[path]; seen {
			continue
		}
		s[path] = fieldOf(path, p)
	}
	return nil
}

func fieldOf(path string, p property) Field {
	f := Field{Path: path, Kind: kindOf(p.Type), Type: p.Type, Keyword: path}
	if p.Type == "text" {
		f.Keyword = ""
		for sub, sp := range p.Fields {
			if sp.Type == "keyword" && f.Keyword == "" {
				f.Keyword = path + "." + sub
			}
		}
		_, f.Words = p.Fields[indexmapping.WordsSubfield]
	}
	return f
}

// noWords reports a searchable text field the mapping holds without its words subfield.
func (s Schema) noWords(path string) bool {
	f, ok := s[path]
	return ok && f.Type == "text" && !f.Words
}

func kindOf(esType string) Kind {
	switch esType {
	case "text", "keyword", "constant_keyword", "wildcard", "match_only_text":
		return KindString
	case "long", "integer", "short", "byte", "double", "float", "half_float", "scaled_float", "unsigned_long":
		return KindNumber
	case "date", "date_nanos":
		return KindDate
	case "boolean":
		return KindBool
	}
	return KindOther
}

// exactField is the field holding the exact values of path, for a value like sample
// when the mapping does not know the path yet (a string goes to .keyword, as dynamic
// mapping will map it).
func (s Schema) exactField(path string, sample any) string {
	if f, ok := s[path]; ok {
		if f.Keyword != "" {
			return f.Keyword
		}
		return path
	}
	if _, isString := sample.(string); isString || sample == nil {
		return path + ".keyword"
	}
	return path
}

// Sorted returns the fields in path order.
func (s Schema) Sorted() []Field {
	out := make([]Field, 0, len(s))
	for _, f := range s {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}
