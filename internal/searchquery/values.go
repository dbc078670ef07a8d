package searchquery

import "strings"

// Values returns the scalar values a record holds at a dotted path, through nested
// objects and arrays (of values or of objects), as the index's exact-value fields hold
// them: a facet's values of the record.
func Values(record map[string]any, path string) []any {
	cur := []any{record}
	for _, part := range strings.Split(path, ".") {
		var next []any
		for _, v := range flattenArrays(cur) {
			if obj, ok := v.(map[string]any); ok {
				if x, ok := obj[part]; ok {
					next = append(next, x)
				}
			}
		}
		cur = next
	}
	var out []any
	for _, v := range flattenArrays(cur) {
		if checkScalar(v) {
			out = append(out, v)
		}
	}
	return out
}

func flattenArrays(vs []any) []any {
	var out []any
	for _, v := range vs {
		if arr, ok := v.([]any); ok {
			out = append(out, flattenArrays(arr)...)
			continue
		}
		out = append(out, v)
	}
	return out
}
