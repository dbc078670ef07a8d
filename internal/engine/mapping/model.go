// Package mapping holds Elasticsearch mappings: parsing and rendering them, merging updates
// with ES's conflict rules, dynamic mapping of new fields, and turning a JSON document into
// the bleve fields that index it.
package mapping

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// Field is one mapped property. Objects have Properties; leaves have a Type and may have
// multi-fields in Fields (e.g. title.keyword).
type Field struct {
	Type                string            `json:"type,omitempty"`
	Analyzer            string            `json:"analyzer,omitempty"`
	SearchAnalyzer      string            `json:"search_analyzer,omitempty"`
	Format              string            `json:"format,omitempty"`
	IgnoreAbove         int               `json:"ignore_above,omitempty"`
	Index               *bool             `json:"index,omitempty"`
	DocValues           *bool             `json:"doc_values,omitempty"`
	Fields              map[string]*Field `json:"fields,omitempty"`
	Properties          map[string]*Field `json:"properties,omitempty"`
	Dynamic             any               `json:"dynamic,omitempty"`
	Enabled             *bool             `json:"enabled,omitempty"`
	NullValue           any               `json:"null_value,omitempty"`
	Boost               float64           `json:"boost,omitempty"`
	Meta                map[string]any    `json:"meta,omitempty"`
	Store               *bool             `json:"store,omitempty"`
	Norms               *bool             `json:"norms,omitempty"`
	Similarity          string            `json:"similarity,omitempty"`
	IndexOptions        string            `json:"index_options,omitempty"`
	Coerce              *bool             `json:"coerce,omitempty"`
	IgnoreMalformed     *bool             `json:"ignore_malformed,omitempty"`
	ScalingFactor       float64           `json:"scaling_factor,omitempty"`
	Normalizer          string            `json:"normalizer,omitempty"`
	EagerGlobalOrdinals *bool             `json:"eager_global_ordinals,omitempty"`
	CopyTo              any               `json:"copy_to,omitempty"`
}

// Mapping is an index's root mapping.
type Mapping struct {
	Dynamic          any               `json:"dynamic,omitempty"`
	DateDetection    *bool             `json:"date_detection,omitempty"`
	NumericDetection *bool             `json:"numeric_detection,omitempty"`
	Meta             map[string]any    `json:"_meta,omitempty"`
	Source           map[string]any    `json:"_source,omitempty"`
	Properties       map[string]*Field `json:"properties,omitempty"`
}

// knownTypes are the field types the engine indexes. Others are rejected as ES rejects an
// unknown mapper type, so a mapping is never silently half-applied.
var knownTypes = map[string]bool{
	"text": true, "keyword": true, "long": true, "integer": true, "short": true, "byte": true,
	"double": true, "float": true, "half_float": true, "scaled_float": true, "unsigned_long": true,
	"boolean": true, "date": true, "object": true, "constant_keyword": false, "match_only_text": true,
	"wildcard": true, "ip": true, "binary": true, "date_nanos": true, "version": true,
	"geo_point": true, "date_range": true,
}

// Numeric reports whether a type is one of ES's numeric types.
func Numeric(t string) bool {
	switch t {
	case "long", "integer", "short", "byte", "double", "float", "half_float", "scaled_float", "unsigned_long":
		return true
	}
	return false
}

// Integral reports whether a numeric type holds whole numbers.
func Integral(t string) bool {
	switch t {
	case "long", "integer", "short", "byte", "unsigned_long":
		return true
	}
	return false
}

// Parse decodes and validates a mapping body ({"properties":...} or {"_doc":{...}} is not
// accepted in 8.x, like ES).
func Parse(raw json.RawMessage) (*Mapping, error) {
	var generic map[string]json.RawMessage
	if err := json.Unmarshal(raw, &generic); err != nil {
		return nil, eserr.MapperParsing("Failed to parse mapping: %s", err.Error())
	}
	allowed := map[string]bool{"dynamic": true, "date_detection": true, "numeric_detection": true,
		"_meta": true, "_source": true, "properties": true, "dynamic_templates": true, "_routing": true}
	for k := range generic {
		if !allowed[k] {
			return nil, eserr.MapperParsing("Root mapping definition has unsupported parameters:  [%s : %s]", k, string(generic[k]))
		}
	}
	if _, ok := generic["dynamic_templates"]; ok {
		return nil, eserr.IllegalArgument("dynamic_templates are not supported by this engine")
	}
	m := &Mapping{}
	if err := json.Unmarshal(raw, m); err != nil {
		return nil, eserr.MapperParsing("Failed to parse mapping: %s", err.Error())
	}
	if err := validateDynamic(m.Dynamic); err != nil {
		return nil, err
	}
	if err := expandDotted(m.Properties); err != nil {
		return nil, err
	}
	if err := validateProps("", m.Properties); err != nil {
		return nil, err
	}
	return m, nil
}

// expandDotted turns "a.b": {...} property names into objects, as ES does.
func expandDotted(props map[string]*Field) error {
	for name, f := range props {
		if f != nil {
			if err := expandDotted(f.Properties); err != nil {
				return err
			}
		}
		head, rest, ok := strings.Cut(name, ".")
		if !ok || head == "" || rest == "" {
			continue
		}
		delete(props, name)
		parent := props[head]
		if parent == nil {
			parent = &Field{Properties: map[string]*Field{}}
			props[head] = parent
		}
		if !parent.IsObject() {
			return eserr.MapperParsing("Failed to parse mapping: Field [%s] is defined more than once", head)
		}
		if parent.Properties == nil {
			parent.Properties = map[string]*Field{}
		}
		if _, dup := parent.Properties[rest]; dup {
			return eserr.MapperParsing("Failed to parse mapping: Field [%s] is defined more than once", name)
		}
		parent.Properties[rest] = f
		if err := expandDotted(parent.Properties); err != nil {
			return err
		}
	}
	return nil
}

func validateDynamic(d any) error {
	switch v := d.(type) {
	case nil, bool:
		return nil
	case string:
		if v == "true" || v == "false" || v == "strict" || v == "runtime" {
			return nil
		}
	}
	return eserr.MapperParsing("Failed to parse mapping: Could not convert [dynamic] to boolean")
}

func validateProps(prefix string, props map[string]*Field) error {
	for name, f := range props {
		if f == nil {
			return eserr.MapperParsing("Failed to parse mapping: Expected map for property [fields] on field [%s] but got a class java.lang.String", name)
		}
		path := prefix + name
		if name == "" || strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".") {
			return eserr.IllegalArgument("field name cannot be an empty string")
		}
		if f.Type == "" && (f.Properties != nil || f.Fields == nil) {
			f.Type = ""
		} else if !knownTypes[f.Type] {
			return eserr.MapperParsing("Failed to parse mapping: The mapper type [%s] declared on field [%s] does not exist. It might have been created within a future version or requires a plugin to be installed. Check the documentation.", f.Type, name)
		}
		if f.Type == "match_only_text" {
			f.Type = "text"
		}
		if f.Normalizer != "" {
			return eserr.MapperParsing("Failed to parse mapping: normalizer [%s] not found for field [%s]", f.Normalizer, name)
		}
		if f.CopyTo != nil {
			return eserr.MapperParsing("Failed to parse mapping: [copy_to] is not supported by this engine (field [%s])", name)
		}
		if f.Type != "" && f.Type != "object" && f.Properties != nil {
			return eserr.MapperParsing("Failed to parse mapping: unknown parameter [properties] on mapper [%s] of type [%s]", name, f.Type)
		}
		if err := validateProps(path+".", f.Properties); err != nil {
			return err
		}
		for sub, sf := range f.Fields {
			if sf == nil || !knownTypes[sf.Type] || sf.Type == "object" {
				t := ""
				if sf != nil {
					t = sf.Type
				}
				return eserr.MapperParsing("Failed to parse mapping: The mapper type [%s] declared on field [%s] does not exist. It might have been created within a future version or requires a plugin to be installed. Check the documentation.", t, sub)
			}
		}
	}
	return nil
}

// IsObject reports whether the field is an object container.
func (f *Field) IsObject() bool { return f.Type == "" || f.Type == "object" }

// Leaf is a flattened, indexable field: "title", "title.keyword", "brand.name".
type Leaf struct {
	Path string
	Type string
	// Mapped is the type as mapped; Type folds ip, version and wildcard into keyword.
	Mapped         string
	Analyzer       string
	SearchAnalyzer string
	Format         string
	IgnoreAbove    int
	Indexed        bool
	DocValues      bool
	Boost          float64
	// ExistsMixed: the indices of a search disagree on ExistsFromTerms for this path.
	ExistsMixed bool
}

// ExistsFromTerms reports whether exists on the leaf is answered from its own terms.
func (l *Leaf) ExistsFromTerms() bool { return ExistsFromTerms(l.Mapped, l.Indexed) }

// ExistsFromTerms reports whether a field of type t has a term for every value it indexes,
// so that exists can be answered from its terms (through columns) and the field need not
// be listed in _field_names. Text is not: an empty or all-stopword value has no term, yet
// the field exists, as in ES (which answers exists on text from norms).
func ExistsFromTerms(t string, indexed bool) bool {
	if !indexed {
		return false
	}
	switch leafType(t) {
	case "keyword", "date", "boolean":
		return true
	}
	return Numeric(t)
}

// Leaves flattens the mapping into dotted paths, multi-fields included.
func (m *Mapping) Leaves() map[string]*Leaf {
	out := map[string]*Leaf{}
	var walk func(prefix string, props map[string]*Field)
	walk = func(prefix string, props map[string]*Field) {
		for name, f := range props {
			path := prefix + name
			if f.IsObject() {
				walk(path+".", f.Properties)
				continue
			}
			out[path] = leafOf(path, f)
			for sub, sf := range f.Fields {
				out[path+"."+sub] = leafOf(path+"."+sub, sf)
			}
		}
	}
	walk("", m.Properties)
	return out
}

// leafType is the type queries and aggregations treat a field as: ip, version and
// wildcard values are exact strings, date_nanos a date (kept to the millisecond).
func leafType(t string) string {
	switch t {
	case "ip", "version", "wildcard":
		return "keyword"
	case "date_nanos":
		return "date"
	}
	return t
}

func leafOf(path string, f *Field) *Leaf {
	l := &Leaf{Path: path, Type: leafType(f.Type), Mapped: f.Type, Analyzer: f.Analyzer, SearchAnalyzer: f.SearchAnalyzer,
		Format: f.Format, IgnoreAbove: f.IgnoreAbove, Indexed: f.Index == nil || *f.Index, Boost: f.Boost}
	l.DocValues = f.Type != "text" && f.Type != "binary" && (f.DocValues == nil || *f.DocValues)
	if l.Analyzer == "" && f.Type == "text" {
		l.Analyzer = "standard"
	}
	if l.SearchAnalyzer == "" {
		l.SearchAnalyzer = l.Analyzer
	}
	return l
}

// Clone deep-copies the mapping through JSON; mappings are small and rarely cloned.
func (m *Mapping) Clone() *Mapping {
	b, _ := json.Marshal(m)
	out := &Mapping{}
	_ = json.Unmarshal(b, out)
	return out
}

// Render returns the mapping as ES shows it in GET _mapping.
func (m *Mapping) Render() map[string]any {
	b, _ := json.Marshal(m)
	out := map[string]any{}
	_ = json.Unmarshal(b, &out)
	return out
}

// Analyzers lists every analyzer name the mapping references, sorted.
func (m *Mapping) Analyzers() []string {
	set := map[string]bool{}
	for _, l := range m.Leaves() {
		if l.Analyzer != "" {
			set[l.Analyzer] = true
		}
		if l.SearchAnalyzer != "" {
			set[l.SearchAnalyzer] = true
		}
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// DynamicMode returns "true", "false", "strict" for the root.
func DynamicMode(d any) string {
	switch v := d.(type) {
	case bool:
		if v {
			return "true"
		}
		return "false"
	case string:
		if v == "runtime" {
			return "false"
		}
		return v
	}
	return "true"
}
