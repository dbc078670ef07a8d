package searchquery

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/aislehq/aisle/internal/relevance"
)

// MaxWords is the most query words the ranking weighs; later words are ignored and named
// in the response's ignoredWords.
const MaxWords = 10

// qword is one word the query matches.
type qword struct {
	// text is the word as the shopper typed it; fold lowercased with accents folded.
	text, fold string
	// prefix: the last word, still being typed (the query does not end with a space), also
	// matches the start of a longer word.
	prefix bool
	// analyzerStop: the language analyzer drops the word, so the words subfield (which
	// keeps every word) matches it.
	analyzerStop bool
	// at is the word's position among the query's tokens, so that a phrase of two kept
	// words can hold the stop words between them.
	at int
}

// queryWords is what a query's text becomes.
type queryWords struct {
	kept []qword
	// tokens are every word of the query, stop words included.
	tokens []string
	// ignored are the words beyond MaxWords and those dropped from the end by a
	// matchingStrategy all retry, in query order.
	ignored []string
	// negated are the words the query says the product lacks (negation.go), with the
	// words that said so: neither is a word to match.
	negated []negation
}

// parseWords splits q into words, drops stop words (unless the query holds nothing
// else), keeps MaxWords of them and drops drop more from the end.
func parseWords(q string, stops relevance.Stops, neg relevance.Negations, drop int) queryWords {
	tokens := splitWords(q)
	qw := queryWords{tokens: tokens}
	var all []qword
	for i, t := range tokens {
		f := relevance.Fold(t)
		all = append(all, qword{text: t, fold: f, analyzerStop: stops.Analyzer[f], at: i})
	}
	var negated map[int]bool
	qw.negated, negated = negations(all, stops, neg)
	for i, w := range all {
		if !stops.Dropped[w.fold] && !negated[i] {
			qw.kept = append(qw.kept, w)
		}
	}
	if len(qw.kept) == 0 {
		qw.kept = all
	}
	if len(qw.kept) > MaxWords {
		for _, w := range qw.kept[MaxWords:] {
			qw.ignored = append(qw.ignored, w.text)
		}
		qw.kept = qw.kept[:MaxWords]
	}
	drop = min(drop, len(qw.kept)-1)
	if drop > 0 {
		cut := qw.kept[len(qw.kept)-drop:]
		qw.ignored = append(wordsOf(cut), qw.ignored...)
		qw.kept = qw.kept[:len(qw.kept)-drop]
	}
	if n := len(qw.kept); n > 0 && endsInWord(q) && qw.kept[n-1].at == len(tokens)-1 {
		qw.kept[n-1].prefix = true
	}
	return qw
}

func wordsOf(ws []qword) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.text
	}
	return out
}

// phrase is the text from kept word i to kept word i+1, with any stop words between.
func (qw queryWords) phrase(i int) string {
	return strings.Join(qw.tokens[qw.kept[i].at:qw.kept[i+1].at+1], " ")
}

// endsInWord reports a query whose last character belongs to a word: its last word is
// still being typed.
func endsInWord(q string) bool {
	r, _ := utf8.DecodeLastRuneInString(q)
	return r != utf8.RuneError && isWordRune(r)
}

// splitWords cuts text into words as the standard tokenizer does, closely enough for the
// query's word rules: letters, digits and marks, joined by an apostrophe between letters
// ("l'eau") and by a dot or comma between digits ("3.5").
func splitWords(text string) []string {
	runes := []rune(text)
	spans := wordSpans(runes)
	out := make([]string, 0, len(spans))
	for _, sp := range spans {
		out = append(out, string(runes[sp[0]:sp[1]]))
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// wordSpans are the words of runes as splitWords cuts them: each its start and end.
func wordSpans(runes []rune) [][2]int {
	var out [][2]int
	start := -1
	for i, r := range runes {
		inWord := isWordRune(r) || (start >= 0 && joins(runes, i))
		switch {
		case inWord && start < 0:
			start = i
		case !inWord && start >= 0:
			out = append(out, [2]int{start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, [2]int{start, len(runes)})
	}
	return out
}

// joins reports a joiner at i between two characters it joins.
func joins(runes []rune, i int) bool {
	if i == 0 || i+1 >= len(runes) {
		return false
	}
	prev, next := runes[i-1], runes[i+1]
	switch runes[i] {
	case '\'', '’':
		return unicode.IsLetter(prev) && unicode.IsLetter(next)
	case '.', ',':
		return unicode.IsDigit(prev) && unicode.IsDigit(next)
	}
	return false
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// digitsOnly reports a word made only of digits (and their separators): a model number
// or a size.
func digitsOnly(w string) bool {
	hasDigit := false
	for _, r := range w {
		switch {
		case unicode.IsDigit(r):
			hasDigit = true
		case r != '.' && r != ',':
			return false
		}
	}
	return hasDigit
}
