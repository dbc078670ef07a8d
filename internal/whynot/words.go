package whynot

import (
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/agnivade/levenshtein"
)

// WordsOf are the words of a record's text: every string value at paths (all of them
// when paths is empty), lower-cased and split at whatever is not a letter or digit.
func WordsOf(src map[string]any, paths []string) []string {
	var texts []string
	if len(paths) == 0 {
		texts = stringsIn(src, texts)
	}
	for _, p := range paths {
		texts = stringsIn(ValueAt(src, p), texts)
	}
	var words []string
	for _, t := range texts {
		for _, w := range Split(t) {
			if !slices.Contains(words, w) {
				words = append(words, w)
			}
		}
	}
	return words
}

// Split cuts text into lower-cased words at whatever is not a letter or digit.
func Split(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

func stringsIn(v any, out []string) []string {
	switch x := v.(type) {
	case string:
		out = append(out, x)
	case []any:
		for _, e := range x {
			out = stringsIn(e, out)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			out = stringsIn(x[k], out)
		}
	}
	return out
}

// Closest is the word of held nearest to word by edit distance (the first of equals),
// "" when held is empty.
func Closest(word string, held []string) string {
	best, bestDist := "", -1
	for _, h := range held {
		if d := levenshtein.ComputeDistance(word, h); bestDist < 0 || d < bestDist {
			best, bestDist = h, d
		}
	}
	return best
}
