package indexsettings

import (
	"fmt"
	"sort"
	"strings"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
)

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
