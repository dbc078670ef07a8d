package searchquery

import (
	"html"
	"slices"
	"strings"

	"github.com/aislehq/aisle/internal/indexmapping"
)

// Highlights come from Elasticsearch's highlighter, so that they follow the analysis
// that matched (stems, typos, transpositions, prefixes, synonyms): each searchable field
// is highlighted whole (number_of_fragments 0) with the marks of its words subfield
// (matched_fields), HTML-escaped (encoder html), matches in <em>.

const (
	preTag  = "<em>"
	postTag = "</em>"
)

// highlightPlan is what the search asks Elasticsearch to highlight and how its answer
// becomes the hits' highlights and snippets.
type highlightPlan struct {
	// fields are the record paths shown in highlights; all: every string field (an
	// index without searchable fields).
	fields []string
	all    bool
	// words: the fields have a words subfield (but those the schema holds without).
	words    bool
	schema   Schema
	snippets []snippetSpec
}

type snippetSpec struct {
	path  string
	words int
}

// highlightPlanOf is nil when the request wants neither highlights nor snippets. Only
// fields the hit returns are highlighted: a browser never sees a field through its
// highlight that the policy does not return.
func highlightPlanOf(req Request, r Access, s Schema, hasText bool) *highlightPlan {
	h := &highlightPlan{words: len(r.Settings.SearchableFields) > 0, schema: s}
	for _, sn := range req.Snippets {
		h.snippets = append(h.snippets, snippetSpec{path: sn.Field, words: snippetWords(sn)})
	}
	if boolOr(req.Highlight, true) && hasText {
		h.fields, h.all = highlighted(req, r)
	}
	if len(h.fields) == 0 && !h.all && len(h.snippets) == 0 {
		return nil
	}
	return h
}

func snippetWords(s SnippetRequest) int {
	if s.Words == nil {
		return DefaultSnippetWords
	}
	return *s.Words
}

// highlighted are the fields to highlight: the searchable fields a hit returns; with
// none configured, the fields it returns, or all (every text field is searchable then).
func highlighted(req Request, r Access) ([]string, bool) {
	returned := returnedFields(req, r)
	if len(r.Settings.SearchableFields) == 0 {
		return returned, returned == nil
	}
	var out []string
	for _, f := range r.Settings.SearchableFields {
		if returned == nil || slices.Contains(returned, string(f.Path)) {
			out = append(out, string(f.Path))
		}
	}
	return out, false
}

// returnedFields are the fields a hit returns (nil: all).
func returnedFields(req Request, r Access) []string {
	if len(req.Fields) > 0 {
		return req.Fields
	}
	if rf := r.retrievable(); len(rf) > 0 {
		return rf
	}
	return nil
}

// body is the search's highlight section (nil without highlights).
func (h *highlightPlan) body() *highlightBody {
	if h == nil {
		return nil
	}
	fields := map[string]any{}
	if h.all {
		fields["*"] = map[string]any{}
	}
	for _, path := range h.fields {
		fields[path] = h.fieldOptions(path)
	}
	for _, s := range h.snippets {
		opts := h.fieldOptions(s.path)
		// A value without a match still gives its beginning to cut a snippet from.
		opts["no_match_size"] = min(s.words*maxWordChars, maxNoMatchSize)
		fields[s.path] = opts
	}
	return &highlightBody{Fields: fields, NumberOfFragments: 0, Encoder: "html",
		PreTags: []string{preTag}, PostTags: []string{postTag}}
}

// maxWordChars is a generous length of a word and its space, for no_match_size.
const (
	maxWordChars   = 24
	maxNoMatchSize = 2400
)

func (h *highlightPlan) fieldOptions(path string) map[string]any {
	if !h.words || h.schema.noWords(path) {
		return map[string]any{}
	}
	return map[string]any{"matched_fields": []string{path, path + "." + indexmapping.WordsSubfield}}
}

// highlights maps a hit's highlighted fields to the API's: a string, or for a field
// holding several strings each value, marked where Elasticsearch marked it. Fields
// without a mark, or not in the record returned, are left out.
func (h *highlightPlan) highlights(es map[string][]string, record map[string]any) map[string]any {
	out := map[string]any{}
	for path, fragments := range es {
		if !h.shows(path) {
			continue
		}
		if v, ok := marked(lookupPath(record, path), fragments); ok {
			out[path] = v
		}
	}
	return out
}

func (h *highlightPlan) shows(path string) bool {
	if h.all {
		return path != indexmapping.ObjectIDField && !strings.HasSuffix(path, "."+indexmapping.KeywordSubfield) &&
			!strings.HasSuffix(path, "."+indexmapping.WordsSubfield)
	}
	return slices.Contains(h.fields, path)
}

// marked is value with Elasticsearch's marked fragments in place of the values they
// mark, the others escaped; false when no fragment marks anything.
func marked(value any, fragments []string) (any, bool) {
	hits := map[string]string{}
	for _, f := range fragments {
		if strings.Contains(f, preTag) {
			hits[strings.TrimSpace(plainText(f))] = f
		}
	}
	if len(hits) == 0 {
		return nil, false
	}
	switch v := value.(type) {
	case string:
		if f, ok := hits[strings.TrimSpace(v)]; ok {
			return f, true
		}
	case []any:
		out := make([]string, 0, len(v))
		found := false
		for _, e := range v {
			s, isString := e.(string)
			if !isString {
				return nil, false
			}
			f, ok := hits[strings.TrimSpace(s)]
			if !ok {
				f = escapeHTML(s)
			}
			found = found || ok
			out = append(out, f)
		}
		return out, found
	}
	return nil, false
}

// plainText is a fragment's text: tags removed, entities decoded.
func plainText(fragment string) string {
	return html.UnescapeString(strings.NewReplacer(preTag, "", postTag, "").Replace(fragment))
}

// escapeHTML escapes as Elasticsearch's html encoder does.
var escapeHTML = strings.NewReplacer(`"`, "&quot;", "&", "&amp;", "<", "&lt;", ">", "&gt;", "'", "&#x27;", "/", "&#x2F;").Replace

// lookupPath finds a dotted path in a record, through nested objects.
func lookupPath(record map[string]any, path string) any {
	var cur any = record
	for _, part := range strings.Split(path, ".") {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = obj[part]
	}
	return cur
}
