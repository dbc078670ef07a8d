package searchquery

import "strings"

// A snippet is a window of about the requested number of words of a field's text around
// its first match (Elasticsearch's highlighter marks the best matches of the query's
// analysis), … where the text was cut; without a match, the field's beginning.

const ellipsis = "…"

// snippets are the hit's snippets, from Elasticsearch's highlighted fields.
func (h *highlightPlan) snippetsOf(es map[string][]string) map[string]string {
	var out map[string]string
	for _, s := range h.snippets {
		text, ok := snippetSource(es[s.path])
		if !ok {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[s.path] = window(text, s.words)
	}
	return out
}

// snippetSource is the first fragment with a match, else the first one (the beginning
// of the value, no_match_size long).
func snippetSource(fragments []string) (string, bool) {
	for _, f := range fragments {
		if strings.Contains(f, preTag) {
			return f, true
		}
	}
	if len(fragments) == 0 {
		return "", false
	}
	return fragments[0], true
}

// window cuts highlighted text to about n words around its first match: the match's
// word a little before the middle, tags kept balanced.
func window(text string, n int) string {
	words := strings.Fields(text)
	if len(words) <= n {
		return strings.Join(words, " ")
	}
	first := 0
	for i, w := range words {
		if strings.Contains(w, preTag) {
			first = i
			break
		}
	}
	start := max(0, min(first-(n-1)/2, len(words)-n))
	end := start + n
	var b strings.Builder
	if start > 0 {
		b.WriteString(ellipsis)
	}
	if open(words[:start]) {
		b.WriteString(preTag)
	}
	b.WriteString(strings.Join(words[start:end], " "))
	if open(words[:end]) {
		b.WriteString(postTag)
	}
	if end < len(words) {
		b.WriteString(ellipsis)
	}
	return b.String()
}

// open reports words ending inside a mark.
func open(words []string) bool {
	opened := 0
	for _, w := range words {
		opened += strings.Count(w, preTag) - strings.Count(w, postTag)
	}
	return opened > 0
}
