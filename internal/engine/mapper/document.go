package mapper

import (
	"encoding/json"
	"net"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/esmapping"
)

// FieldNames is the hidden keyword field listing every field a document has; the exists
// query searches it, as ES's _field_names does.
const FieldNames = "_field_names"

// AnalyzerLookup resolves a bleve analyzer name (see BleveAnalyzer).
type AnalyzerLookup func(name string) analysis.Analyzer

// Builder turns JSON sources into bleve documents under one index's mapping and analysis.
type Builder struct {
	Mapping  *Mapping
	Analysis *Analysis
	Analyzer AnalyzerLookup
}

// Build parses source and returns the document to index. When dynamic mapping added fields,
// updated is the new mapping (the caller persists it before acknowledging the write).
// It works in two passes so the index's mapping is never mutated: the first collects new
// fields into an update merged into a copy, the second builds the document.
func (b *Builder) Build(id string, source []byte) (doc *document.Document, updated *Mapping, err error) {
	root, err := DecodeSource(source)
	if err != nil {
		return nil, nil, eserr.DocumentParsing("failed to parse: %s", err.Error())
	}
	obj, ok := root.(map[string]any)
	if !ok {
		return nil, nil, eserr.DocumentParsing("failed to parse: Root mapping definition must be an object")
	}
	m := b.Mapping
	c := &collector{m: m}
	add := map[string]*Field{}
	if err := c.object("", obj, m.Properties, add, DynamicMode(m.Dynamic)); err != nil {
		return nil, nil, err
	}
	if c.added {
		merged, err := Merge(m, &Mapping{Properties: add})
		if err != nil {
			return nil, nil, err
		}
		m, updated = merged, merged
	}
	w := &walker{b: b, id: id, doc: document.NewDocument(id), seen: map[string]bool{}}
	if err := w.object("", obj, m.Properties); err != nil {
		return nil, nil, err
	}
	if len(w.seen) > 0 {
		// One field of all names instead of one field per name: bleve's cost grows with
		// the number of field instances per document.
		w.doc.AddField(newFieldNamesField(w.seen))
	}
	return w.doc, updated, nil
}

// collector finds fields the mapping lacks and applies the dynamic setting to them.
type collector struct {
	m     *Mapping
	added bool
}

func splitKey(key string, val any) (string, any, error) {
	if !strings.Contains(key, ".") {
		if key == "" {
			return "", nil, eserr.DocumentParsing("[1:2] failed to parse: field name cannot be an empty string")
		}
		return key, val, nil
	}
	// "a.b": v is the same as {"a": {"b": v}}, as in ES.
	head, rest, _ := strings.Cut(key, ".")
	if head == "" || rest == "" {
		return "", nil, eserr.DocumentParsing("field name cannot contain only whitespace or dots: ['%s']", key)
	}
	return head, map[string]any{rest: val}, nil
}

func (c *collector) object(prefix string, obj map[string]any, props, add map[string]*Field, dyn string) error {
	for rawKey, rawVal := range obj {
		key, val, err := splitKey(rawKey, rawVal)
		if err != nil {
			return err
		}
		if prefix == "" && esmapping.IsMetadataField(key) {
			return eserr.DocumentParsing("[1:2] Field [%s] is a metadata field and cannot be added inside a document. Use the index API request parameters.", key)
		}
		if err := c.value(prefix, key, val, props, add, dyn); err != nil {
			return err
		}
	}
	return nil
}

func (c *collector) value(prefix, key string, val any, props, add map[string]*Field, dyn string) error {
	if f := props[key]; f != nil && f.Type == DenseVector {
		if u := vectorDims(f, val); u != nil && add[key] == nil {
			add[key], c.added = u, true
		}
		return nil
	}
	if arr, ok := val.([]any); ok {
		for _, el := range arr {
			if err := c.value(prefix, key, el, props, add, dyn); err != nil {
				return err
			}
		}
		return nil
	}
	if val == nil {
		return nil
	}
	f := props[key]
	if f == nil {
		f = add[key]
	}
	if f == nil {
		switch dyn {
		case "strict":
			parent := strings.TrimSuffix(prefix, ".")
			if parent == "" {
				parent = "_doc"
			}
			return eserr.New(400, "strict_dynamic_mapping_exception", "[1:2] mapping set to strict, dynamic introduction of [%s] within [%s] is not allowed", key, parent)
		case "false":
			return nil
		}
		f = infer(val, c.m)
		if f == nil {
			return nil
		}
		add[key] = f
		c.added = true
	}
	obj, isObj := val.(map[string]any)
	if !f.IsObject() || !isObj || (f.Enabled != nil && !*f.Enabled) {
		return nil
	}
	sub := dyn
	if f.Dynamic != nil {
		sub = DynamicMode(f.Dynamic)
	}
	child := add[key]
	if child == nil {
		child = &Field{Properties: map[string]*Field{}}
		add[key] = child
	}
	if child.Properties == nil {
		child.Properties = map[string]*Field{}
	}
	return c.object(prefix+key+".", obj, f.Properties, child.Properties, sub)
}

type walker struct {
	b    *Builder
	id   string
	doc  *document.Document
	seen map[string]bool
	// inArray > 0 while the values of an array are walked; arrayKeywords holds the field
	// that collects the keyword values of each path there (see addKeyword).
	inArray       int
	arrayKeywords map[string]*termsField
	// lastText is the last value added of each text field, which the next follows (see
	// PositionGap).
	lastText map[string]*textField
}

// addText indexes a text value, after the field's earlier values in the document.
func (w *walker) addText(path, value string, opts index.FieldIndexingOptions, a analysis.Analyzer) {
	if w.lastText == nil {
		w.lastText = map[string]*textField{}
	}
	f := newTextField(path, value, opts, a, w.lastText[path])
	w.lastText[path] = f
	w.doc.AddField(f)
}

// addKeyword indexes a keyword value. The values of a keyword array go into one field
// with one term per value instead of one field per value: the same postings, norms and
// doc values (bleve merges same-named fields of a document), at a fraction of bleve's and
// zap's per-field cost.
func (w *walker) addKeyword(path, value string, opts index.FieldIndexingOptions) {
	if w.inArray == 0 {
		w.doc.AddField(newKeywordField(path, value, opts))
		return
	}
	if f := w.arrayKeywords[path]; f != nil && f.Options() == opts {
		f.terms = append(f.terms, value)
		return
	}
	f := newKeywordField(path, value, opts)
	if w.arrayKeywords == nil {
		w.arrayKeywords = map[string]*termsField{}
	}
	w.arrayKeywords[path] = f
	w.doc.AddField(f)
}

func (w *walker) object(prefix string, obj map[string]any, props map[string]*Field) error {
	for rawKey, rawVal := range obj {
		key, val, err := splitKey(rawKey, rawVal)
		if err != nil {
			return err
		}
		if err := w.value(prefix, key, val, props); err != nil {
			return err
		}
	}
	return nil
}

func (w *walker) value(prefix, key string, val any, props map[string]*Field) error {
	path := prefix + key
	f := props[key]
	if val == nil || f == nil || (f.Enabled != nil && !*f.Enabled) {
		return nil
	}
	if f.Type == DenseVector {
		return w.vector(path, f, val)
	}
	if Unqueryable(f.Type) {
		return w.special(path, f, val)
	}
	if arr, ok := val.([]any); ok {
		w.inArray++
		defer func() { w.inArray-- }()
		for _, el := range arr {
			if err := w.value(prefix, key, el, props); err != nil {
				return err
			}
		}
		return nil
	}
	if f.IsObject() {
		obj, ok := val.(map[string]any)
		if !ok {
			return eserr.DocumentParsing("[1:2] object mapping for [%s] tried to parse field [%s] as object, but found a concrete value", path, key)
		}
		return w.object(path+".", obj, f.Properties)
	}
	if err := w.leaf(path, f, val); err != nil {
		return err
	}
	for sub, sf := range f.Fields {
		if err := w.leaf(path+"."+sub, sf, val); err != nil {
			return err
		}
	}
	return nil
}

// infer picks a type for a new field with ES's dynamic mapping rules.
func infer(val any, m *Mapping) *Field {
	switch v := val.(type) {
	case string:
		if (m.DateDetection == nil || *m.DateDetection) && DetectDate(v) {
			return &Field{Type: "date"}
		}
		if m.NumericDetection != nil && *m.NumericDetection {
			if _, err := strconv.ParseInt(v, 10, 64); err == nil {
				return &Field{Type: "long"}
			}
			if _, err := strconv.ParseFloat(v, 64); err == nil {
				return &Field{Type: "float"}
			}
		}
		return &Field{Type: "text", Fields: map[string]*Field{"keyword": {Type: "keyword", IgnoreAbove: 256}}}
	case json.Number:
		if strings.ContainsAny(string(v), ".eE") {
			return &Field{Type: "float"}
		}
		return &Field{Type: "long"}
	case bool:
		return &Field{Type: "boolean"}
	case map[string]any:
		return &Field{Properties: map[string]*Field{}}
	case []any:
		for _, el := range v {
			if el != nil {
				return infer(el, m)
			}
		}
	}
	return nil
}

func (w *walker) typeErr(path, typ string, v any, why string) error {
	e := eserr.DocumentParsing("[1:2] failed to parse field [%s] of type [%s] in document with id '%s'. Preview of field's value: '%s'", path, typ, w.id, preview(v))
	if why != "" {
		e.CausedBy = eserr.IllegalArgument("%s", why)
	}
	return e
}

func (w *walker) leaf(path string, f *Field, v any) error {
	if _, isObj := v.(map[string]any); isObj {
		return w.typeErr(path, f.Type, v, "")
	}
	indexed := f.Index == nil || *f.Index
	present, err := w.addLeaf(path, f, v, fieldOptions(f, indexed))
	if err != nil || !present {
		return err
	}
	if !ExistsFromTerms(f.Type, indexed) {
		w.seen[path] = true
	}
	return nil
}

// fieldOptions are bleve's options for a leaf of f: text keeps positions, and every other
// type that has fields keeps doc values unless the mapping turns them off.
func fieldOptions(f *Field, indexed bool) index.FieldIndexingOptions {
	var opts index.FieldIndexingOptions
	if indexed {
		opts |= index.IndexField
	}
	switch {
	case f.Type == "text":
		opts |= index.IncludeTermVectors
	case f.DocValues == nil || *f.DocValues:
		opts |= index.DocValues
	}
	return opts
}

// addLeaf adds the bleve field for one value v of f; present is false when the value
// counts as absent (above ignore_above, or a type the engine only validates).
func (w *walker) addLeaf(path string, f *Field, v any, opts index.FieldIndexingOptions) (present bool, err error) {
	switch {
	case f.Type == "text":
		w.addText(path, scalarString(v), opts, w.b.Analyzer(BleveAnalyzer(f.Analyzer, w.b.Analysis)))
	case f.Type == "keyword" || f.Type == "wildcard" || f.Type == "ip" || f.Type == "version":
		return w.addKeywordLeaf(path, f, v, opts)
	case Numeric(f.Type):
		n, err := toNumber(v, f.Type)
		if err != nil {
			return false, w.typeErr(path, f.Type, v, err.Error())
		}
		w.doc.AddField(exactNumber(document.NewNumericFieldWithIndexingOptions(path, nil, n, opts)))
	case f.Type == "binary":
		// Binary values are kept in _source only and are not searchable, as in ES; only
		// exists sees them, through _field_names.
		if _, ok := v.(string); !ok {
			return false, w.typeErr(path, "binary", v, "")
		}
	case f.Type == "date" || f.Type == "date_nanos":
		return w.addDateLeaf(path, f, v, opts)
	case f.Type == "boolean":
		bv, err := toBool(v)
		if err != nil {
			return false, w.typeErr(path, "boolean", v, err.Error())
		}
		w.doc.AddField(document.NewBooleanFieldWithIndexingOptions(path, nil, bv, opts))
	default:
		return false, nil
	}
	return true, nil
}

func (w *walker) addKeywordLeaf(path string, f *Field, v any, opts index.FieldIndexingOptions) (bool, error) {
	s := scalarString(v)
	if f.Type == "ip" && net.ParseIP(s) == nil {
		return false, w.typeErr(path, "ip", v, "'"+s+"' is not an IP string literal.")
	}
	if f.IgnoreAbove > 0 && len([]rune(s)) > f.IgnoreAbove {
		return false, nil
	}
	w.addKeyword(path, s, opts)
	return true, nil
}

func (w *walker) addDateLeaf(path string, f *Field, v any, opts index.FieldIndexingOptions) (bool, error) {
	t, err := ParseDate(scalarDateInput(v), f.Format)
	if err != nil {
		return false, w.typeErr(path, "date", v, err.Error())
	}
	df, err := document.NewDateTimeFieldWithIndexingOptions(path, nil, t, "", opts)
	if err != nil {
		return false, w.typeErr(path, "date", v, err.Error())
	}
	w.doc.AddField(exactDate(df))
	return true, nil
}
