package indexsettings

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
)

// Rules a change must keep so that the index can be rebuilt with it: a rebuild that
// breaks one fails for good, while PUT /config answered 200.

// checkSynonyms finds the synonym terms the analyzer reduces to nothing (only
// punctuation, symbols or spaces): Elasticsearch refuses to create an index whose
// synonym rules hold one ("was completely eliminated by analyzer").
func checkSynonyms(s searchv1alpha1.IndexSettings) []FieldError {
	var out []FieldError
	for i, g := range s.Synonyms {
		for j, term := range g.Terms {
			if !strings.ContainsFunc(term, isWordRune) {
				out = append(out, FieldError{fmt.Sprintf("%s[%d].terms[%d]", Synonyms, i, j),
					fmt.Sprintf("%q holds no letter or digit: the analyzer would drop it, and no index can be built with it", term)})
			}
		}
	}
	return out
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// CheckShapes finds the searchable paths the index's records hold in another shape than
// text: a path holding objects, or lying under a field holding values. The rebuild's
// copy would refuse those records, and the rebuild never finish.
func CheckShapes(s searchv1alpha1.IndexSettings, schema searchquery.Schema) []FieldError {
	var out []FieldError
	for i, f := range s.SearchableFields {
		if msg := shapeProblem(string(f.Path), schema); msg != "" {
			out = append(out, FieldError{fmt.Sprintf("%s[%d].path", SearchableFields, i), msg})
		}
	}
	return out
}

func shapeProblem(path string, schema searchquery.Schema) string {
	if f, ok := schema[path]; ok && isObject(f) {
		return fmt.Sprintf("%q holds objects in this index; a searchable field holds text", path)
	}
	if under := leavesUnder(path, schema); len(under) > 0 {
		return fmt.Sprintf("%q holds objects in this index (%s); a searchable field holds text", path, strings.Join(under, ", "))
	}
	for i := strings.IndexByte(path, '.'); i > 0; i = nextDot(path, i) {
		if f, ok := schema[path[:i]]; ok && !isObject(f) {
			return fmt.Sprintf("%q holds values in this index, not objects", path[:i])
		}
	}
	return ""
}

func isObject(f searchquery.Field) bool { return f.Type == "object" || f.Type == "nested" }

func nextDot(path string, i int) int {
	j := strings.IndexByte(path[i+1:], '.')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

// leavesUnder names up to three fields under path, in order.
func leavesUnder(path string, schema searchquery.Schema) []string {
	var out []string
	for p := range schema {
		if strings.HasPrefix(p, path+".") {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out[:min(len(out), 3)]
}
