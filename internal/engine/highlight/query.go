package highlight

import (
	"fmt"
	"math"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2/analysis"

	"github.com/aislehq/aisle/internal/engine/mapper"
)

// node is a query reduced to what highlighting needs: which leaves can mark text, and how
// they combine, so that a clause that did not match a document marks nothing in it (ES's
// unified highlighter works from the query's matches). A nil node is a clause highlighting
// cannot judge (a range, a filter on another field): it counts as matched.
type node struct {
	leaf *leaf
	kids []*node
	// min is how many kids must match: len(kids) for a conjunction, 1 for a disjunction.
	min int
}

// leaf matches a sequence of tokens of one field: a term is one step, a phrase several.
type leaf struct {
	field string
	steps []step
	key   string // names the leaf in passage scoring
}

// step matches one token at a position relative to the leaf's first.
type step struct {
	rel    int
	terms  []string // any of these
	prefix bool     // terms are prefixes
	fuzzy  *fuzzy
}

// Index is what compiling a query needs of the searched index.
type Index struct {
	Name string
	// Leaf returns the mapped field at a path, or nil; Leaves lists the mapped paths.
	Leaf   func(path string) *mapper.Leaf
	Leaves func() []string
	// Analyzer returns the analyzer an ES name stands for in this index.
	Analyzer func(esName string) analysis.Analyzer
	// MaxAnalyzedOffset is index.highlight.max_analyzed_offset.
	MaxAnalyzedOffset int
}

type compiler struct{ ix Index }

func and(kids ...*node) *node { return &node{kids: kids, min: len(kids)} }
func or(kids ...*node) *node  { return &node{kids: kids, min: 1} }

// compile reduces a raw query (as decoded from the request) to a node.
func (c compiler) compile(raw any) *node {
	m, ok := raw.(map[string]any)
	if !ok || len(m) != 1 {
		return nil
	}
	for typ, body := range m {
		switch typ {
		case "bool":
			return c.boolean(body)
		case "dis_max":
			return or(c.list(field(body, "queries"))...)
		case "constant_score":
			return c.compile(field(body, "filter"))
		case "boosting":
			return c.compile(field(body, "positive"))
		case "function_score":
			return c.compile(field(body, "query"))
		case "multi_match":
			return c.multiMatch(body)
		}
		return c.fieldQuery(typ, body)
	}
	return nil
}

func field(body any, key string) any {
	m, _ := body.(map[string]any)
	return m[key]
}

func (c compiler) list(v any) []*node {
	var out []*node
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			out = append(out, c.compile(e))
		}
	case map[string]any:
		out = append(out, c.compile(x))
	}
	return out
}

// boolean: must and filter clauses all match, should clauses as minimum_should_match
// says; must_not clauses mark nothing.
func (c compiler) boolean(body any) *node {
	m, _ := body.(map[string]any)
	must := append(c.list(m["must"]), c.list(m["filter"])...)
	should := c.list(m["should"])
	if len(should) == 0 {
		return and(must...)
	}
	min := 0
	if len(must) == 0 {
		min = 1
	}
	if v, ok := m["minimum_should_match"]; ok {
		min = minimumShouldMatch(v, len(should))
	}
	return and(append(must, &node{kids: should, min: min})...)
}

// minimumShouldMatch reads an integer or a percentage, negative counting from the total.
func minimumShouldMatch(v any, n int) int {
	s := strings.TrimSpace(fmt.Sprint(v))
	pct := strings.HasSuffix(s, "%")
	f, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil {
		return 1
	}
	k := int(f)
	if pct {
		k = int(math.Floor(float64(n) * math.Abs(f) / 100))
		if f < 0 {
			k = -k
		}
	}
	if k < 0 {
		k += n
	}
	return max(k, 0)
}

// fieldQuery compiles the queries of one field: {"match": {"title": ...}}.
func (c compiler) fieldQuery(typ string, body any) *node {
	m, ok := body.(map[string]any)
	if !ok {
		return nil
	}
	for f, v := range m {
		if f == "boost" || f == "_name" {
			continue
		}
		opts, _ := v.(map[string]any)
		if opts == nil {
			opts = map[string]any{"query": v, "value": v}
		}
		return c.onField(typ, f, opts)
	}
	return nil
}

func (c compiler) onField(typ, f string, opts map[string]any) *node {
	l := c.ix.Leaf(f)
	if l == nil || (l.Type != "text" && l.Type != "keyword") {
		return nil
	}
	text := opts["query"]
	if text == nil {
		text = opts["value"]
	}
	s := fmt.Sprint(text)
	switch typ {
	case "match":
		return c.match(l, s, opts, false)
	case "match_bool_prefix":
		return c.match(l, s, opts, true)
	case "match_phrase":
		return c.phrase(l, s, opts, false)
	case "match_phrase_prefix":
		return c.phrase(l, s, opts, true)
	case "term":
		return c.leaf(f, step{terms: []string{s}})
	case "terms":
		return c.terms(f, text)
	case "prefix":
		return c.leaf(f, step{terms: []string{s}, prefix: true})
	case "fuzzy":
		fz := fuzziness(opts, "transpositions")
		if fz == nil {
			fz = &fuzzy{transpositions: true, autoLo: 3, autoHi: 6}
		}
		return c.leaf(f, step{terms: []string{s}, fuzzy: fz.fix(s)})
	}
	return nil
}

func (c compiler) terms(f string, v any) *node {
	vals, _ := v.([]any)
	kids := make([]*node, 0, len(vals))
	for _, e := range vals {
		kids = append(kids, c.leaf(f, step{terms: []string{fmt.Sprint(e)}}))
	}
	return or(kids...)
}

func (c compiler) leaf(f string, steps ...step) *node {
	l := &leaf{field: f, steps: steps}
	parts := make([]string, len(steps))
	for i, s := range steps {
		parts[i] = strings.Join(s.terms, "|")
	}
	l.key = f + ":" + strings.Join(parts, " ")
	return &node{leaf: l}
}

// multiMatch is its query on each of its fields, any of which may match.
func (c compiler) multiMatch(body any) *node {
	m, _ := body.(map[string]any)
	fields := c.expand(m["fields"])
	typ, _ := m["type"].(string)
	q := map[string]string{"phrase": "match_phrase", "phrase_prefix": "match_phrase_prefix", "bool_prefix": "match_bool_prefix"}[typ]
	if q == "" {
		q = "match"
	}
	kids := make([]*node, 0, len(fields))
	for _, f := range fields {
		kids = append(kids, c.onField(q, f, m))
	}
	return or(kids...)
}

// expand resolves multi_match fields: boosts dropped, patterns matched against the
// mapping's text and keyword fields; none means every field.
func (c compiler) expand(v any) []string {
	var pats []string
	switch x := v.(type) {
	case string:
		pats = []string{x}
	case []any:
		for _, e := range x {
			pats = append(pats, fmt.Sprint(e))
		}
	}
	if len(pats) == 0 {
		pats = []string{"*"}
	}
	var out []string
	for _, p := range pats {
		p, _, _ = strings.Cut(p, "^")
		if !strings.Contains(p, "*") {
			out = append(out, p)
			continue
		}
		for _, name := range c.ix.Leaves() {
			if ok, _ := path.Match(p, name); ok {
				out = append(out, name)
			}
		}
	}
	return out
}

// match: each word of the analyzed text, any of its synonyms, with the fuzziness asked;
// operator and needs every word. With lastPrefix the last word matches as a prefix.
func (c compiler) match(l *mapper.Leaf, text string, opts map[string]any, lastPrefix bool) *node {
	groups := c.words(l, text, opts)
	fz := fuzziness(opts, "fuzzy_transpositions")
	kids := make([]*node, 0, len(groups))
	for i, alts := range groups {
		word := &node{min: 1}
		for _, alt := range alts {
			steps := make([]step, len(alt))
			for j, t := range alt {
				steps[j] = step{rel: j, terms: []string{t}}
				if len(alt) == 1 && fz != nil {
					steps[j].fuzzy = fz.fix(t)
				}
				steps[j].prefix = lastPrefix && i == len(groups)-1 && len(alt) == 1
			}
			word.kids = append(word.kids, c.leaf(l.Path, steps...))
		}
		kids = append(kids, word)
	}
	n := or(kids...)
	if op, _ := opts["operator"].(string); strings.EqualFold(op, "and") {
		n.min = len(kids)
	} else if v, ok := opts["minimum_should_match"]; ok {
		n.min = max(minimumShouldMatch(v, len(kids)), 1)
	}
	return n
}

// phrase: the analyzed tokens at their relative positions; with lastPrefix the last one
// matches as a prefix.
func (c compiler) phrase(l *mapper.Leaf, text string, opts map[string]any, lastPrefix bool) *node {
	toks := c.tokens(l, text, opts)
	if len(toks) == 0 {
		return nil
	}
	byPos := map[int][]string{}
	for _, t := range toks {
		byPos[t.Position] = append(byPos[t.Position], string(t.Term))
	}
	positions := make([]int, 0, len(byPos))
	for p := range byPos {
		positions = append(positions, p)
	}
	sort.Ints(positions)
	steps := make([]step, len(positions))
	for i, p := range positions {
		steps[i] = step{rel: p - positions[0], terms: byPos[p]}
	}
	steps[len(steps)-1].prefix = lastPrefix
	return c.leaf(l.Path, steps...)
}

// tokens analyzes query text as the query does: keyword fields take it whole, text fields
// through their search analyzer or the query's own.
func (c compiler) tokens(l *mapper.Leaf, text string, opts map[string]any) analysis.TokenStream {
	if l.Type == "keyword" {
		return analysis.TokenStream{{Term: []byte(text), Position: 1, End: len(text)}}
	}
	name := l.SearchAnalyzer
	if a, ok := opts["analyzer"].(string); ok {
		name = a
	}
	return c.ix.Analyzer(name).Analyze([]byte(text))
}

// words groups the query's tokens into words: tokens over the same text are alternatives
// (synonyms, preserved originals), and a synonym of several words is one alternative
// whose tokens follow one another from the word's first position.
func (c compiler) words(l *mapper.Leaf, text string, opts map[string]any) [][][]string {
	var out [][][]string
	var span [2]int
	first := 0
	for i, t := range c.tokens(l, text, opts) {
		if i == 0 || [2]int{t.Start, t.End} != span {
			span, first = [2]int{t.Start, t.End}, t.Position
			out = append(out, nil)
		}
		g := &out[len(out)-1]
		if t.Position == first || len(*g) == 0 {
			*g = append(*g, nil)
		}
		alt := &(*g)[len(*g)-1]
		*alt = append(*alt, string(t.Term))
	}
	return out
}
