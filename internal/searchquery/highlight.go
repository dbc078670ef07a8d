package searchquery

import (
	"html"
	"strings"
	"unicode"
	"unicode/utf8"

	porterstemmer "github.com/blevesearch/go-porterstemmer"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// Highlighter marks the words of a field value that the query matched. The search
// subset of Elasticsearch that Aisle uses has no highlight API, so the API server redoes
// the matching on the returned fields, the way the index analyses them: split into words
// on anything but letters and digits, lowercase, fold accents, and for English compare
// stems. A word matches a query word (or one of its synonyms) exactly, by stem, within
// the typo distance of the query (when typo tolerance is on), or, for the last query
// word, as a prefix.
type Highlighter struct {
	words   map[string]bool
	stems   map[string]bool
	fuzzy   []string
	prefix  string
	english bool
	fields  []string
}

// NewHighlighter prepares the matching of query q under settings s.
func NewHighlighter(q string, s searchv1alpha1.IndexSettings, typos bool) *Highlighter {
	h := &Highlighter{words: map[string]bool{}, stems: map[string]bool{}, english: s.Language != searchv1alpha1.LanguageGeneric}
	qw := words(q)
	if len(qw) > 0 {
		h.prefix = qw[len(qw)-1]
	}
	for _, w := range expandSynonyms(qw, s.Synonyms) {
		h.words[w] = true
		if h.english {
			h.stems[porterstemmer.StemString(w)] = true
		}
		if typos && len([]rune(w)) >= 3 {
			h.fuzzy = append(h.fuzzy, w)
		}
	}
	for _, f := range s.SearchableFields {
		h.fields = append(h.fields, string(f.Path))
	}
	return h
}

// expandSynonyms adds the words of every synonym group that shares a word with the query.
func expandSynonyms(qw []string, groups []searchv1alpha1.SynonymGroup) []string {
	out := append([]string{}, qw...)
	in := map[string]bool{}
	for _, w := range qw {
		in[w] = true
	}
	for _, g := range groups {
		var gw []string
		hit := false
		for _, t := range g.Terms {
			tw := words(t)
			gw = append(gw, tw...)
			if len(tw) == 1 && in[tw[0]] {
				hit = true
			}
		}
		if hit {
			out = append(out, gw...)
		}
	}
	return out
}

// Apply returns the highlighted fields of a record: the searchable fields, or every
// string field when none are configured. Fields without a matched word are left out.
func (h *Highlighter) Apply(record map[string]any) map[string]any {
	out := map[string]any{}
	if len(h.fields) == 0 {
		h.walk("", record, out)
		return out
	}
	for _, path := range h.fields {
		if v, ok := lookup(record, path); ok {
			if marked, ok := h.value(v); ok {
				out[path] = marked
			}
		}
	}
	return out
}

func (h *Highlighter) walk(prefix string, obj map[string]any, out map[string]any) {
	for k, v := range obj {
		path := prefix + k
		if child, ok := v.(map[string]any); ok {
			h.walk(path+".", child, out)
			continue
		}
		if path == "objectID" {
			continue
		}
		if marked, ok := h.value(v); ok {
			out[path] = marked
		}
	}
}

// value highlights a string or an array of strings.
func (h *Highlighter) value(v any) (any, bool) {
	switch t := v.(type) {
	case string:
		return h.mark(t)
	case []any:
		var out []string
		matched := false
		for _, e := range t {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			m, hit := h.mark(s)
			matched = matched || hit
			out = append(out, m)
		}
		return out, matched
	}
	return nil, false
}

// mark escapes text for HTML and wraps every matched word in <em>.
func (h *Highlighter) mark(text string) (string, bool) {
	var b strings.Builder
	hit := false
	start := -1
	flush := func(end int) {
		word := text[start:end]
		if h.matches(normalize(word)) {
			hit = true
			b.WriteString("<em>" + html.EscapeString(word) + "</em>")
		} else {
			b.WriteString(html.EscapeString(word))
		}
		start = -1
	}
	for i, r := range text {
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			flush(i)
		}
		b.WriteString(html.EscapeString(string(r)))
	}
	if start >= 0 {
		flush(len(text))
	}
	return b.String(), hit
}

func (h *Highlighter) matches(w string) bool {
	if w == "" {
		return false
	}
	if h.words[w] || (h.prefix != "" && strings.HasPrefix(w, h.prefix)) {
		return true
	}
	if h.english && h.stems[porterstemmer.StemString(w)] {
		return true
	}
	for _, q := range h.fuzzy {
		if withinTypos(q, w) {
			return true
		}
	}
	return false
}

// withinTypos applies fuzziness AUTO: one edit from 3 characters, two from 6.
func withinTypos(q, w string) bool {
	qr, wr := []rune(q), []rune(w)
	allowed := 1
	if len(qr) >= 6 {
		allowed = 2
	}
	if d := len(qr) - len(wr); d > allowed || -d > allowed {
		return false
	}
	return levenshtein(qr, wr) <= allowed
}

func levenshtein(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// words splits text into normalized words.
func words(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !isWordRune(r) }) {
		if n := normalize(w); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// normalize lowercases and folds accents, as the index's lowercase and asciifolding do.
func normalize(w string) string {
	if isASCII(w) {
		return strings.ToLower(w)
	}
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	folded, _, err := transform.String(t, strings.ToLower(w))
	if err != nil {
		return strings.ToLower(w)
	}
	return folded
}

// lookup finds a dotted path in a record, through nested objects.
func lookup(record map[string]any, path string) (any, bool) {
	var cur any = record
	for _, part := range strings.Split(path, ".") {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = obj[part]; !ok {
			return nil, false
		}
	}
	return cur, true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
