package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/aislehq/aisle/internal/esmapping"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// Records are checked against the mapping of the physical index they go to before
// anything is written, so that a value the backend would refuse (a type conflict with a
// mapped or dynamically mapped field) refuses the request with nothing written. The
// coercion rules are Elasticsearch's (internal/esmapping, which the embedded engine
// implements too): numbers accept numeric strings, dates the mapping's formats, and so on.

// checkSettings checks the records of a replacement against the mapping its new index
// is created with.
func checkSettings(t Target, records []Record) error {
	body, err := indexmapping.Build(t.Settings)
	if err != nil {
		return fmt.Errorf("deriving the index mapping: %w", err)
	}
	raw, _ := json.Marshal(body.Mappings)
	var m esmapping.Mapping
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("decoding the index mapping: %w", err)
	}
	return checkRecords(&m, records, true)
}

// CheckRecords checks records against mapping m, as the backend would index them into
// it: a field m lacks takes the type dynamic mapping would give its first value.
func CheckRecords(m *esmapping.Mapping, records []Record) error {
	return checkRecords(m, records, true)
}

// errStale: a record has a field the mapping lacks, and the mapping may be outdated.
var errStale = errors.New("mapping may be outdated")

// checkRecords checks each record's fields; fields new to the mapping take the type
// ES's dynamic mapping would give them from their first value in the request. With
// final false, a new field is errStale instead.
func checkRecords(m *esmapping.Mapping, records []Record, final bool) error {
	c := typeChecker{m: m, added: map[string]*esmapping.Field{}, final: final}
	for i, r := range records {
		place := r.Place
		if place == "" {
			place = fmt.Sprintf("records[%d]", i)
		}
		dec := json.NewDecoder(bytes.NewReader(r.Raw))
		dec.UseNumber()
		var obj map[string]any
		if err := dec.Decode(&obj); err != nil {
			return Invalid("%s: must be a JSON object", place)
		}
		if err := c.object("", obj, m.Properties); err != nil {
			if errors.Is(err, errStale) {
				return err
			}
			return Invalid("%s: %s", place, err)
		}
	}
	return nil
}

type typeChecker struct {
	m     *esmapping.Mapping
	added map[string]*esmapping.Field // path -> field first mapped by this request
	final bool
}

func (c *typeChecker) object(prefix string, obj map[string]any, props map[string]*esmapping.Field) error {
	for key, val := range obj {
		if err := checkName(prefix, key); err != nil {
			return err
		}
		if head, rest, dotted := strings.Cut(key, "."); dotted { // "a.b": v is {"a": {"b": v}}, as in ES
			key, val = head, map[string]any{rest: val}
		}
		if prefix == "" && esmapping.IsMetadataField(key) {
			return fmt.Errorf("field %q is reserved for the search backend's metadata", key)
		}
		if prefix == "" && key == indexmapping.VectorsField {
			if err := checkVectors(val, props[key], c.final); err != nil {
				return err
			}
			continue
		}
		if err := c.value(prefix+key, val, props[key]); err != nil {
			return err
		}
	}
	return nil
}

// checkName refuses the field names Elasticsearch refuses.
func checkName(prefix, key string) error {
	switch {
	case key == "":
		return fmt.Errorf("field names may not be empty")
	case esmapping.BadDots(key):
		return fmt.Errorf("field %q: a field name may not start or end with '.' nor hold '..'", prefix+key)
	}
	return nil
}

func (c *typeChecker) value(path string, val any, f *esmapping.Field) error {
	if arr, ok := val.([]any); ok {
		for _, el := range arr {
			if err := c.value(path, el, f); err != nil {
				return err
			}
		}
		return nil
	}
	if val == nil {
		return nil
	}
	if f == nil {
		f = c.added[path]
	}
	if f == nil {
		if !c.final {
			return errStale
		}
		if f = c.infer(val); f == nil {
			return nil
		}
		c.added[path] = f
	}
	obj, isObj := val.(map[string]any)
	container := f.IsObject() || f.Type == "nested"
	switch {
	case container && !isObj:
		return fmt.Errorf("field %q: a value where the mapping has an object", path)
	case container && strings.Count(path, ".")+1 >= esmapping.MaxDepth:
		return fmt.Errorf("field %q: objects nest at most %d levels deep (index.mapping.depth.limit)", path, esmapping.MaxDepth)
	case container:
		if f.Enabled != nil && !*f.Enabled {
			return nil
		}
		return c.object(path+".", obj, f.Properties)
	case isObj:
		return fmt.Errorf("field %q: an object where the mapping has type %s", path, f.Type)
	}
	if err := leafAccepts(f, val); errors.Is(err, esmapping.ErrOutOfRange) {
		return fmt.Errorf("field %q: %s cannot be indexed as %s: out of range", path, preview(val), f.Type)
	} else if err != nil {
		return fmt.Errorf("field %q: %s cannot be indexed as %s: %w", path, preview(val), f.Type, err)
	}
	return nil
}

// infer is the type ES's dynamic mapping gives a new field for its first value.
func (c *typeChecker) infer(val any) *esmapping.Field {
	switch v := val.(type) {
	case string:
		if (c.m.DateDetection == nil || *c.m.DateDetection) && esmapping.DetectDate(v) {
			return &esmapping.Field{Type: "date"}
		}
		return &esmapping.Field{Type: "text"}
	case json.Number:
		if strings.ContainsAny(string(v), ".eE") {
			return &esmapping.Field{Type: "float"}
		}
		return &esmapping.Field{Type: "long"}
	case bool:
		return &esmapping.Field{Type: "boolean"}
	case map[string]any:
		return &esmapping.Field{Type: "object"}
	}
	return nil
}

// leafAccepts applies ES's coercion rules of a leaf type to a scalar value.
func leafAccepts(f *esmapping.Field, v any) error {
	switch {
	case esmapping.Numeric(f.Type):
		_, err := esmapping.DocumentNumber(v, f.Type)
		return err
	case f.Type == "date" || f.Type == "date_nanos":
		if n, ok := v.(json.Number); ok {
			x, _ := n.Float64()
			v = x
		}
		_, err := esmapping.ParseDate(v, f.Format)
		return err
	case f.Type == "boolean":
		if s, ok := v.(string); ok && (s == "true" || s == "false" || s == "") {
			return nil
		}
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("only true or false are allowed")
		}
	case f.Type == "ip":
		if s, ok := v.(string); !ok || net.ParseIP(s) == nil {
			return fmt.Errorf("not an IP address")
		}
	case f.Type == "binary":
		if _, ok := v.(string); !ok {
			return fmt.Errorf("not a base64 string")
		}
	}
	return nil
}

func preview(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(b)
}
