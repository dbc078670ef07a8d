// Package esmapping holds Elasticsearch's mapping model and its rules for values: the
// types of a mapping, the coercions a field type applies to a JSON value (numbers from
// numeric strings, dates in a mapping's formats, booleans) and date detection. It is
// backend-neutral: the catalog checks records against Elasticsearch's rules with it, and
// the embedded engine (internal/engine/mapper) implements Elasticsearch with it.
package esmapping

import (
	"encoding/json"
	"sort"
)

// Field is one mapped property. Objects have Properties; leaves have a Type and may have
// multi-fields in Fields (e.g. title.keyword).
type Field struct {
	Type           string            `json:"type,omitempty"`
	Analyzer       string            `json:"analyzer,omitempty"`
	SearchAnalyzer string            `json:"search_analyzer,omitempty"`
	Format         string            `json:"format,omitempty"`
	IgnoreAbove    int               `json:"ignore_above,omitempty"`
	Index          *bool             `json:"index,omitempty"`
	DocValues      *bool             `json:"doc_values,omitempty"`
	Fields         map[string]*Field `json:"fields,omitempty"`
	Properties     map[string]*Field `json:"properties,omitempty"`
	Dynamic        any               `json:"dynamic,omitempty"`
	Enabled        *bool             `json:"enabled,omitempty"`
	NullValue      any               `json:"null_value,omitempty"`
	Boost          float64           `json:"boost,omitempty"`
	Meta           map[string]any    `json:"meta,omitempty"`
	Store          *bool             `json:"store,omitempty"`
	Norms          *bool             `json:"norms,omitempty"`
	Similarity     string            `json:"similarity,omitempty"`
	// IndexOptions is a string on text fields (docs, freqs, positions) and an object on
	// dense_vector fields (type, m, ef_construction, confidence_interval).
	IndexOptions any `json:"index_options,omitempty"`
	// Dims and ElementType are dense_vector's; Dims is nil until set, by the mapping or
	// by the first document's vector.
	Dims                *int    `json:"dims,omitempty"`
	ElementType         string  `json:"element_type,omitempty"`
	Coerce              *bool   `json:"coerce,omitempty"`
	IgnoreMalformed     *bool   `json:"ignore_malformed,omitempty"`
	ScalingFactor       float64 `json:"scaling_factor,omitempty"`
	Normalizer          string  `json:"normalizer,omitempty"`
	EagerGlobalOrdinals *bool   `json:"eager_global_ordinals,omitempty"`
	CopyTo              any     `json:"copy_to,omitempty"`
	Fielddata           *bool   `json:"fielddata,omitempty"`
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
	// Fielddata: a text field whose terms aggregations may count (fielddata: true).
	Fielddata bool
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
		Format: f.Format, IgnoreAbove: f.IgnoreAbove, Indexed: f.Index == nil || *f.Index, Boost: f.Boost,
		Fielddata: f.Type == "text" && f.Fielddata != nil && *f.Fielddata}
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
