package esanalysis

import (
	"fmt"
	"strings"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"
)

// TypeSynonym is the bleve token filter type behind ES's inline synonym and
// synonym_graph filters ("a, b, c" equivalences and "a, b => c" replacements).
const TypeSynonym = "aisle_synonym"

// SynonymToken is the type of the tokens a synonym rule puts out, ES's "SYNONYM".
const SynonymToken analysis.TokenType = 64

func init() {
	// Registration fails only for a duplicate name, a programming error worth a crash.
	if err := registry.RegisterTokenFilter(TypeSynonym, newSynonymFilter); err != nil {
		panic(err)
	}
}

type synonymFilter struct {
	rules  map[string][][]string
	maxLen int
}

func newSynonymFilter(config map[string]interface{}, _ *registry.Cache) (analysis.TokenFilter, error) {
	f := &synonymFilter{rules: map[string][][]string{}}
	raw, _ := config["synonyms"].([]interface{})
	for _, r := range raw {
		s, ok := r.(string)
		if !ok {
			return nil, fmt.Errorf("synonym rules must be strings")
		}
		f.addRule(s)
	}
	return f, nil
}

func words(s string) []string { return strings.Fields(strings.ToLower(strings.TrimSpace(s))) }

func (f *synonymFilter) addRule(rule string) {
	rule = strings.TrimSpace(rule)
	if rule == "" || strings.HasPrefix(rule, "#") {
		return
	}
	if lhs, rhs, ok := strings.Cut(rule, "=>"); ok {
		var outs [][]string
		for _, r := range strings.Split(rhs, ",") {
			if w := words(r); len(w) > 0 {
				outs = append(outs, w)
			}
		}
		for _, l := range strings.Split(lhs, ",") {
			f.add(words(l), outs)
		}
		return
	}
	var group [][]string
	for _, r := range strings.Split(rule, ",") {
		if w := words(r); len(w) > 0 {
			group = append(group, w)
		}
	}
	for _, g := range group {
		f.add(g, group)
	}
}

func (f *synonymFilter) add(lhs []string, outs [][]string) {
	if len(lhs) == 0 {
		return
	}
	key := strings.Join(lhs, " ")
	f.rules[key] = append(f.rules[key], outs...)
	if len(lhs) > f.maxLen {
		f.maxLen = len(lhs)
	}
}

// Filter replaces the longest matching token sequence with all its synonyms, placing each
// synonym at the position of the match (a flattened token graph, as ES indexes it).
func (f *synonymFilter) Filter(in analysis.TokenStream) analysis.TokenStream {
	if len(f.rules) == 0 {
		return in
	}
	out := make(analysis.TokenStream, 0, len(in))
	shift := 0
	for i := 0; i < len(in); {
		n, outs := f.match(in, i)
		if n == 0 {
			t := in[i]
			t.Position += shift
			out = append(out, t)
			i++
			continue
		}
		start, end, pos := in[i].Start, in[i+n-1].End, in[i].Position+shift
		longest := 0
		for _, o := range outs {
			for j, w := range o {
				out = append(out, &analysis.Token{Term: []byte(w), Start: start, End: end, Position: pos + j, Type: SynonymToken})
			}
			if len(o) > longest {
				longest = len(o)
			}
		}
		shift += longest - n
		i += n
	}
	return out
}

func (f *synonymFilter) match(in analysis.TokenStream, i int) (int, [][]string) {
	for n := f.maxLen; n >= 1; n-- {
		if i+n > len(in) {
			continue
		}
		parts := make([]string, n)
		for j := 0; j < n; j++ {
			parts[j] = string(in[i+j].Term)
		}
		if outs, ok := f.rules[strings.Join(parts, " ")]; ok {
			return n, outs
		}
	}
	return 0, nil
}
