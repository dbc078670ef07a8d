// Package mapper holds Elasticsearch mappings: parsing and rendering them, merging updates
// with ES's conflict rules, dynamic mapping of new fields, and turning a JSON document into
// the bleve fields that index it.
package mapper

import (
	"encoding/json"
	"strings"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/esmapping"
)

// The model and the value rules are Elasticsearch's, shared with the catalog
// (internal/esmapping); the engine adds parsing, merging and indexing.
type (
	// Field is one mapped property.
	Field = esmapping.Field
	// Mapping is an index's root mapping.
	Mapping = esmapping.Mapping
	// Leaf is a flattened, indexable field.
	Leaf = esmapping.Leaf
)

// Re-exported rules of internal/esmapping, under the names the engine uses.
var (
	Numeric         = esmapping.Numeric
	Integral        = esmapping.Integral
	ExistsFromTerms = esmapping.ExistsFromTerms
	DynamicMode     = esmapping.DynamicMode
	ParseDate       = esmapping.ParseDate
	DetectDate      = esmapping.DetectDate
	FormatDate      = esmapping.FormatDate
	ToNumber        = esmapping.ToNumber
	toNumber        = esmapping.DocumentNumber
	toBool          = esmapping.ToBool
	scalarString    = esmapping.ScalarString
	scalarDateInput = esmapping.DateInput
	preview         = esmapping.Preview
)

// knownTypes are the field types the engine indexes. Others are rejected as ES rejects an
// unknown mapper type, so a mapping is never silently half-applied.
var knownTypes = map[string]bool{
	"text": true, "keyword": true, "long": true, "integer": true, "short": true, "byte": true,
	"double": true, "float": true, "half_float": true, "scaled_float": true, "unsigned_long": true,
	"boolean": true, "date": true, "object": true, "constant_keyword": false, "match_only_text": true,
	"wildcard": true, "ip": true, "binary": true, "date_nanos": true, "version": true,
	"geo_point": true, "date_range": true, DenseVector: true,
}

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
		if f.Type == DenseVector {
			if err := normalizeVector(name, f); err != nil {
				return err
			}
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
