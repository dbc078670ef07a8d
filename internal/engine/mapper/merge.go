package mapper

import (
	"github.com/aislehq/aisle/internal/engine/eserr"
)

// Merge applies an update to a copy of the mapping with ES's rules: new fields are added,
// existing fields keep their type and analysis, and any change of those is rejected with
// "mapper [x] cannot be changed from type [a] to [b]" (400 illegal_argument_exception).
func Merge(base, update *Mapping) (*Mapping, error) {
	out := base.Clone()
	if update.Dynamic != nil {
		out.Dynamic = update.Dynamic
	}
	if update.DateDetection != nil {
		out.DateDetection = update.DateDetection
	}
	if update.NumericDetection != nil {
		out.NumericDetection = update.NumericDetection
	}
	if update.Meta != nil {
		out.Meta = update.Meta
	}
	if update.Source != nil {
		out.Source = update.Source
	}
	if out.Properties == nil && update.Properties != nil {
		out.Properties = map[string]*Field{}
	}
	if err := mergeProps("", out.Properties, update.Properties); err != nil {
		return nil, err
	}
	if n := CountFields(out); n > TotalFieldsLimit && n > CountFields(base) {
		return nil, eserr.IllegalArgument("Limit of total fields [%d] has been exceeded", TotalFieldsLimit)
	}
	return out, nil
}

// TotalFieldsLimit is ES's index.mapping.total_fields.limit at its default: a mapping
// update that would take an index past it is refused, so a client cannot grow a mapping
// (and the memory of every search over it) without bound.
const TotalFieldsLimit = 1000

// CountFields counts the fields ES counts against the limit: every object and leaf
// property and every multi-field, metadata fields aside.
func CountFields(m *Mapping) int {
	var count func(props map[string]*Field) int
	count = func(props map[string]*Field) int {
		n := 0
		for _, f := range props {
			n += 1 + len(f.Fields) + count(f.Properties)
		}
		return n
	}
	return count(m.Properties)
}

func mergeProps(prefix string, dst, src map[string]*Field) error {
	for name, nf := range src {
		path := prefix + name
		of, ok := dst[name]
		if !ok {
			dst[name] = cloneField(nf)
			continue
		}
		if err := mergeField(path, of, nf); err != nil {
			return err
		}
	}
	return nil
}

func typeName(f *Field) string {
	if f.IsObject() {
		return "object"
	}
	return f.Type
}

func mergeField(path string, of, nf *Field) error {
	if typeName(of) != typeName(nf) {
		return eserr.IllegalArgument("mapper [%s] cannot be changed from type [%s] to [%s]", path, typeName(of), typeName(nf))
	}
	if of.IsObject() {
		if of.Properties == nil && nf.Properties != nil {
			of.Properties = map[string]*Field{}
		}
		if nf.Dynamic != nil {
			of.Dynamic = nf.Dynamic
		}
		return mergeProps(path+".", of.Properties, nf.Properties)
	}
	if of.Type == DenseVector {
		return mergeVector(path, of, nf)
	}
	if err := sameParam(path, "analyzer", orDefault(of.Analyzer, of.Type), orDefault(nf.Analyzer, nf.Type)); err != nil {
		return err
	}
	if nf.SearchAnalyzer != "" {
		of.SearchAnalyzer = nf.SearchAnalyzer
	}
	if err := sameParam(path, "format", of.Format, nf.Format); err != nil {
		return err
	}
	if nf.IgnoreAbove != 0 {
		of.IgnoreAbove = nf.IgnoreAbove
	}
	if nf.Meta != nil {
		// ES replaces a field's meta as a whole on update.
		of.Meta = nf.Meta
	}
	for sub, sf := range nf.Fields {
		if of.Fields == nil {
			of.Fields = map[string]*Field{}
		}
		old, ok := of.Fields[sub]
		if !ok {
			of.Fields[sub] = cloneField(sf)
			continue
		}
		if err := mergeField(path+"."+sub, old, sf); err != nil {
			return err
		}
	}
	return nil
}

func orDefault(analyzer, typ string) string {
	if analyzer == "" && typ == "text" {
		return "default"
	}
	return analyzer
}

func sameParam(path, param, a, b string) error {
	if a == b || b == "" {
		return nil
	}
	if a == "" {
		a = "default"
	}
	if param == "analyzer" && (a == "default" && b == "standard" || a == "standard" && b == "default") {
		return nil
	}
	return eserr.IllegalArgument("Mapper for [%s] conflicts with existing mapper:\n\tCannot update parameter [%s] from [%s] to [%s]", path, param, a, b)
}

func cloneField(f *Field) *Field {
	c := *f
	if f.Fields != nil {
		c.Fields = map[string]*Field{}
		for k, v := range f.Fields {
			c.Fields[k] = cloneField(v)
		}
	}
	if f.Properties != nil {
		c.Properties = map[string]*Field{}
		for k, v := range f.Properties {
			c.Properties[k] = cloneField(v)
		}
	}
	return &c
}
