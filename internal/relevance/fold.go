package relevance

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// letters folds what Unicode does not decompose into a letter and a mark, as
// Elasticsearch's asciifolding does.
var letters = strings.NewReplacer("ß", "ss", "æ", "ae", "ø", "o", "œ", "oe", "ł", "l", "đ", "d", "ð", "d", "þ", "th", "ı", "i")

// Fold lowercases a word and folds its accents, as the index's lowercase and asciifolding
// filters do: "Crème" and "creme" compare equal.
func Fold(w string) string {
	w = strings.ToLower(w)
	if isASCII(w) {
		return w
	}
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	folded, _, err := transform.String(t, w)
	if err != nil {
		return letters.Replace(w)
	}
	return letters.Replace(folded)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
