package highlight

import (
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
)

// span is a marked part of one value of a field, in bytes.
type span struct {
	value, start, end int
	key               string // the leaf that marked it, for passage scoring
}

// content is a field's values analyzed by one analyzer.
type content struct {
	tokens []analysis.TokenStream // per value
	byPos  []map[int][]int        // per value, built when a phrase asks
}

// evaluator runs a compiled query over the contents of one field to highlight: the leaves
// of each field in fields are looked up in that field's analysis of the text. With prune
// (require_field_match, ES's matches mode) a clause that did not match marks nothing and
// a phrase is one span; without, every leaf marks what it finds, term by term.
type evaluator struct {
	fields   map[string]*content
	fallback *content // for leaves on other fields when fields are not required to match
	prune    bool
}

func (e *evaluator) node(n *node) (bool, []span) {
	if n == nil {
		return true, nil
	}
	if n.leaf != nil {
		return e.leaf(n.leaf)
	}
	var spans []span
	matched := 0
	for _, k := range n.kids {
		ok, s := e.node(k)
		if ok {
			matched++
			spans = append(spans, s...)
		}
	}
	if e.prune && matched < n.min {
		return false, nil
	}
	return true, spans
}

func (e *evaluator) leaf(l *leaf) (bool, []span) {
	c := e.fields[l.field]
	if c == nil {
		c = e.fallback
	}
	if c == nil {
		return true, nil // a clause on a field this one does not show: it is not ours to judge
	}
	var out []span
	for v, toks := range c.tokens {
		for i, t := range toks {
			if !l.steps[0].matches(t.Term) {
				continue
			}
			last, ok := c.follow(v, t, l.steps[1:])
			if !ok {
				continue
			}
			if e.prune || len(l.steps) == 1 {
				out = append(out, span{v, toks[i].Start, last.End, l.key})
				continue
			}
			out = append(out, c.each(v, t, l)...)
		}
	}
	return len(out) > 0, out
}

// follow checks the steps after the first from token t and returns the last token matched.
func (c *content) follow(v int, t *analysis.Token, steps []step) (*analysis.Token, bool) {
	last := t
	for _, s := range steps {
		next := c.at(v, t.Position+s.rel, s)
		if next == nil {
			return nil, false
		}
		last = next
	}
	return last, true
}

// each marks the tokens of a phrase one by one.
func (c *content) each(v int, t *analysis.Token, l *leaf) []span {
	out := []span{{v, t.Start, t.End, l.key}}
	for _, s := range l.steps[1:] {
		n := c.at(v, t.Position+s.rel, s)
		out = append(out, span{v, n.Start, n.End, l.key})
	}
	return out
}

// at returns a token of value v at pos that step s matches, or nil.
func (c *content) at(v, pos int, s step) *analysis.Token {
	if c.byPos == nil {
		c.byPos = make([]map[int][]int, len(c.tokens))
	}
	if c.byPos[v] == nil {
		c.byPos[v] = map[int][]int{}
		for i, t := range c.tokens[v] {
			c.byPos[v][t.Position] = append(c.byPos[v][t.Position], i)
		}
	}
	for _, i := range c.byPos[v][pos] {
		if t := c.tokens[v][i]; s.matches(t.Term) {
			return t
		}
	}
	return nil
}

func (s step) matches(term []byte) bool {
	for _, want := range s.terms {
		switch {
		case s.prefix:
			if strings.HasPrefix(string(term), want) {
				return true
			}
		case s.fuzzy != nil:
			if s.fuzzy.within(want, string(term)) {
				return true
			}
		case string(term) == want:
			return true
		}
	}
	return false
}

// runeOffsets maps each byte offset of s (and len(s)) to its offset in code points.
func runeOffsets(s string) []int {
	out := make([]int, len(s)+1)
	n := 0
	for i := 0; i < len(s); {
		_, size := utf8.DecodeRuneInString(s[i:])
		for j := 0; j < size; j++ {
			out[i+j] = n
		}
		n++
		i += size
	}
	out[len(s)] = n
	return out
}
