package highlight

import (
	"path"
	"sort"
	"strings"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/valyala/fastjson"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
)

// Highlighter highlights the hits of one index for one search.
type Highlighter struct {
	ix     Index
	fields []plan
}

// plan is one field to highlight: where its text comes from and which fields' matches
// mark it.
type plan struct {
	name, source string
	keyword      bool     // keyword values are shown whole
	marks        []string // the field and its matched_fields
	settings     Settings
	query        *node
}

// New prepares the highlighting of o for a search whose query is query (nil: match_all).
func New(o *Options, query any, ix Index) *Highlighter {
	h := &Highlighter{ix: ix}
	c := compiler{ix: ix}
	compiled := c.compile(query)
	for _, f := range o.Fields {
		q := compiled
		if f.Query != nil {
			q = c.compile(f.Query)
		}
		for _, name := range h.expand(f.Name) {
			l := ix.Leaf(name)
			h.fields = append(h.fields, plan{name: name, source: h.sourceOf(name),
				keyword: l.Type == "keyword", marks: append([]string{name}, f.MatchedFields...), settings: f.Settings, query: q})
		}
	}
	return h
}

// expand resolves a field name or pattern to the text and keyword fields it names.
func (h *Highlighter) expand(name string) []string {
	if !strings.Contains(name, "*") {
		if l := h.ix.Leaf(name); l != nil && (l.Type == "text" || l.Type == "keyword") {
			return []string{name}
		}
		return nil
	}
	var out []string
	for _, p := range h.ix.Leaves() {
		if ok, _ := path.Match(name, p); ok {
			if l := h.ix.Leaf(p); l != nil && (l.Type == "text" || l.Type == "keyword") {
				out = append(out, p)
			}
		}
	}
	return out
}

// indexAnalyzer names the analyzer a field indexes with: keyword fields index whole values.
func indexAnalyzer(l *mapper.Leaf) string {
	if l.Type == "keyword" {
		return "keyword"
	}
	return l.Analyzer
}

// sourceOf is where a field's values are in _source: a multi-field (title.words) shows its
// parent's values.
func (h *Highlighter) sourceOf(name string) string {
	if i := strings.LastIndexByte(name, '.'); i > 0 && h.ix.Leaf(name[:i]) != nil {
		return name[:i]
	}
	return name
}

// Hit returns the highlight of one hit (nil when nothing is shown); doc numbers the hit
// in errors, as ES's doc[] does.
func (h *Highlighter) Hit(source []byte, doc int) (map[string][]string, error) {
	if len(h.fields) == 0 {
		return nil, nil
	}
	v, err := fastjson.ParseBytes(source)
	if err != nil {
		return nil, nil
	}
	var out map[string][]string
	for i := range h.fields {
		frags, err := h.field(&h.fields[i], sourceValues(v, h.fields[i].source), doc)
		if err != nil {
			return nil, err
		}
		if len(frags) > 0 {
			if out == nil {
				out = map[string][]string{}
			}
			out[h.fields[i].name] = frags
		}
	}
	return out, nil
}

func (h *Highlighter) field(p *plan, values []string, doc int) ([]string, error) {
	if len(values) == 0 {
		return nil, nil
	}
	t := newText(values)
	limit := p.settings.MaxAnalyzedOffset
	if limit == 0 && t.length > h.ix.MaxAnalyzedOffset {
		return nil, eserr.IllegalArgument("The length [%d] of field [%s] in doc[%d]/index[%s] exceeds the [index.highlight.max_analyzed_offset] limit [%d]. To avoid this error, set the query parameter [max_analyzed_offset] to a value less than index setting [%d] and this will tolerate long field values by truncating them.",
			t.length, p.name, doc, h.ix.Name, h.ix.MaxAnalyzedOffset, h.ix.MaxAnalyzedOffset)
	}
	e := &evaluator{fields: map[string]*content{}, prune: p.settings.RequireFieldMatch}
	for _, f := range p.marks {
		if l := h.ix.Leaf(f); l != nil && (l.Type == "text" || l.Type == "keyword") {
			e.fields[f] = h.analyze(indexAnalyzer(l), values, t, limit)
		}
	}
	if !p.settings.RequireFieldMatch {
		e.fallback = e.fields[p.name]
	}
	_, spans := e.node(p.query)
	matches := t.matches(spans, values)
	if len(matches) == 0 {
		if p.settings.NoMatchSize > 0 {
			return t.noMatch(&p.settings), nil
		}
		return nil, nil
	}
	return t.fragments(matches, p), nil
}

// analyze runs an analyzer over each value; with limit, tokens ending past that many
// characters of the content are left out, as ES stops analyzing there.
func (h *Highlighter) analyze(name string, values []string, t *text, limit int) *content {
	an := h.ix.Analyzer(name)
	c := &content{tokens: make([]analysis.TokenStream, len(values))}
	for i, v := range values {
		toks := an.Analyze([]byte(v))
		if limit > 0 {
			offs := runeOffsets(v)
			kept := toks[:0]
			for _, tk := range toks {
				if t.base[i]+offs[tk.End] <= limit {
					kept = append(kept, tk)
				}
			}
			toks = kept
		}
		c.tokens[i] = toks
	}
	return c
}

// matches turns the marked byte spans into content offsets in code points, in order,
// without duplicates.
func (t *text) matches(spans []span, values []string) []match {
	offs := make([][]int, len(values))
	seen := map[[2]int]bool{}
	out := make([]match, 0, len(spans))
	for _, s := range spans {
		if offs[s.value] == nil {
			offs[s.value] = runeOffsets(values[s.value])
		}
		m := match{start: t.base[s.value] + offs[s.value][s.start], end: t.base[s.value] + offs[s.value][s.end], key: s.key}
		if m.end <= m.start || seen[[2]int{m.start, m.end}] {
			continue
		}
		seen[[2]int{m.start, m.end}] = true
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].start != out[j].start {
			return out[i].start < out[j].start
		}
		return out[i].end < out[j].end
	})
	return out
}

// fragments picks and formats the passages of a field.
func (t *text) fragments(matches []match, p *plan) []string {
	s := &p.settings
	n := s.Fragments
	bounds := func(v int) boundaries {
		switch {
		case n == 0 || p.keyword:
			return wholeValue{len(t.values[v])}
		case s.WordBoundaries:
			return wordPassages{wordBreaks(t.values[v])}
		}
		return newBounded(t.values[v], s.FragmentSize)
	}
	ps := t.passages(matches, n, bounds)
	if s.ByScore {
		sort.SliceStable(ps, func(i, j int) bool { return ps[i].score > ps[j].score })
	}
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		if f := t.format(p, s); strings.TrimSpace(f) != "" {
			out = append(out, f)
		}
	}
	return out
}

// sourceValues collects the values at a dotted path of a source, through objects, arrays
// and keys that contain dots, as strings.
func sourceValues(v *fastjson.Value, path string) []string {
	var out []string
	collect(v, strings.Split(path, "."), &out)
	return out
}

func collect(v *fastjson.Value, parts []string, out *[]string) {
	switch v.Type() {
	case fastjson.TypeArray:
		arr, _ := v.Array()
		for _, e := range arr {
			collect(e, parts, out)
		}
		return
	case fastjson.TypeNull:
		return
	}
	if len(parts) == 0 {
		switch v.Type() {
		case fastjson.TypeString:
			*out = append(*out, string(v.GetStringBytes()))
		case fastjson.TypeNumber, fastjson.TypeTrue, fastjson.TypeFalse:
			*out = append(*out, v.String())
		}
		return
	}
	obj, err := v.Object()
	if err != nil {
		return
	}
	for i := 1; i <= len(parts); i++ {
		if child := obj.Get(strings.Join(parts[:i], ".")); child != nil {
			collect(child, parts[i:], out)
		}
	}
}
