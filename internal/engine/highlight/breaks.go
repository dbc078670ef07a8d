package highlight

import (
	"sort"
	"unicode"
)

// wholeValue makes each value one passage, as ES does with number_of_fragments 0.
type wholeValue struct{ n int }

func (w wholeValue) around(int) (int, int) { return 0, w.n }

// breaks are the boundaries of one value under one rule, sorted, 0 and its length
// included.
type breaks []int

// preceding is the last boundary before off (BreakIterator.preceding).
func (b breaks) preceding(off int) int {
	i := sort.SearchInts(b, off)
	if i == 0 {
		return 0
	}
	return b[i-1]
}

// following is the first boundary after off (BreakIterator.following).
func (b breaks) following(off int) int {
	i := sort.SearchInts(b, off+1)
	if i == len(b) {
		return b[len(b)-1]
	}
	return b[i]
}

// wordPassages makes each passage the word a match starts in (boundary_scanner: word).
type wordPassages struct{ words breaks }

func (w wordPassages) around(off int) (int, int) {
	return w.words.preceding(off + 1), w.words.following(off)
}

// bounded is ES's BoundedBreakIteratorScanner: a passage is the sentences around a match
// that fit in maxLen characters; a longer sentence is cut at the word boundaries nearest
// maxLen characters around the match. Calls come with increasing offsets.
type bounded struct {
	text                   []rune
	sentences, words       breaks // words are found when a sentence is too long
	maxLen                 int
	windowStart, windowEnd int
	innerStart, innerEnd   int
}

func newBounded(r []rune, maxLen int) *bounded {
	return &bounded{text: r, sentences: sentenceBreaks(r), maxLen: maxLen, windowStart: -1, windowEnd: -1}
}

func (b *bounded) around(off int) (int, int) {
	// Lucene asks for the boundary preceding off+1 and then the one following off.
	at := off + 1
	if at > b.windowStart && at < b.windowEnd {
		b.innerStart, b.innerEnd = b.innerEnd, b.windowEnd
	} else {
		b.newWindow(at)
	}
	if b.innerEnd-b.innerStart > b.maxLen {
		if b.words == nil {
			b.words = wordBreaks(b.text)
		}
		if at-b.maxLen > b.innerStart {
			b.innerStart = max(b.innerStart, b.words.preceding(at-b.maxLen))
		}
		remaining := max(0, b.maxLen-(at-b.innerStart))
		if at+remaining < b.windowEnd {
			b.innerEnd = min(b.windowEnd, b.words.following(at+remaining))
		}
	}
	return b.innerStart, b.innerEnd
}

// newWindow takes the sentences from the one holding at for as long as they fit, or the
// first sentence after it when even that one does not.
func (b *bounded) newWindow(at int) {
	textEnd := b.sentences[len(b.sentences)-1]
	b.innerStart = b.sentences.preceding(at)
	target := at + max(0, b.maxLen-(at-b.innerStart))
	if target+1 > textEnd {
		b.innerEnd = textEnd
	} else {
		b.innerEnd = b.sentences.preceding(target + 1)
	}
	if b.innerStart == b.innerEnd {
		b.innerEnd = b.sentences.following(target)
	}
	b.windowStart, b.windowEnd = b.innerStart, b.innerEnd
}

// sentenceBreaks finds sentence ends as Java's sentence BreakIterator does for plain
// text: after a line or paragraph break, and after ., ! or ? (with closing quotes and
// brackets) and the spaces that follow, unless a period is followed by a lower-case word.
func sentenceBreaks(r []rune) breaks {
	out := breaks{0}
	for i := 0; i < len(r); i++ {
		if isParagraph(r[i]) {
			j := i + 1
			if r[i] == '\r' && j < len(r) && r[j] == '\n' {
				j++
			}
			out = append(out, j)
			i = j - 1
			continue
		}
		if r[i] != '.' && r[i] != '!' && r[i] != '?' {
			continue
		}
		j := i + 1
		for j < len(r) && isCloser(r[j]) {
			j++
		}
		if j == len(r) || !unicode.IsSpace(r[j]) || isParagraph(r[j]) {
			i = j - 1
			continue
		}
		k := j
		for k < len(r) && unicode.IsSpace(r[k]) && !isParagraph(r[k]) {
			k++
		}
		if r[i] == '.' && k < len(r) && unicode.IsLower(r[k]) {
			continue
		}
		if k < len(r) {
			out = append(out, k)
		}
		i = k - 1
	}
	if out[len(out)-1] != len(r) {
		out = append(out, len(r))
	}
	return out
}

func isParagraph(c rune) bool { return c == '\n' || c == '\r' || c == '\u2029' || c == '\u0085' }

func isCloser(c rune) bool {
	return c == '.' || c == '!' || c == '?' || c == '"' || c == '\'' || c == ')' || c == ']' || c == '”' || c == '’' || c == '»'
}

// wordBreaks finds word boundaries as Java's word BreakIterator does: around runs of
// letters and digits, runs of spaces, and each other character.
func wordBreaks(r []rune) breaks {
	out := breaks{0}
	for i := 1; i <= len(r); i++ {
		if i == len(r) || class(r[i]) != class(r[i-1]) || class(r[i]) == 2 {
			out = append(out, i)
		}
	}
	if len(r) == 0 {
		return breaks{0}
	}
	return out
}

// class is 0 for word characters, 1 for spaces and 2 for any other character.
func class(c rune) int {
	if c < 0x80 {
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_':
			return 0
		case c == ' ' || c >= '\t' && c <= '\r':
			return 1
		}
		return 2
	}
	switch {
	case unicode.IsLetter(c) || unicode.IsDigit(c) || unicode.Is(unicode.Mn, c) || c == '_':
		return 0
	case unicode.IsSpace(c):
		return 1
	}
	return 2
}
