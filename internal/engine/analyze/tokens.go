package analyze

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"

	"github.com/aislehq/aisle/internal/engine/esanalysis"
	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
)

// stages runs a chain over the texts of a request and renders tokens as ES does:
// positions continue from one text to the next after the chain's position gap, offsets
// after the text and one more, and offsets count UTF-16 code units, as Java strings do.
type stages struct {
	chain *mapper.Chain
	texts []string
	max   int
	attrs map[string]bool // nil: every attribute
	// tokenized[i] is the number of tokens the tokenizer made of text i: positions a
	// filter removed at the end of a text still count, as Lucene's end() reports them.
	tokenized []int
	// units[i][b] is the UTF-16 offset of byte b of text i.
	units [][]int
}

func newStages(c *mapper.Chain, texts []string, max int, attrs []string) *stages {
	s := &stages{chain: c, texts: texts, max: max, tokenized: make([]int, len(texts)), units: make([][]int, len(texts))}
	if attrs != nil {
		s.attrs = map[string]bool{}
		for _, a := range attrs {
			s.attrs[a] = true
		}
	}
	for i, t := range texts {
		s.units[i] = utf16Offsets(t)
		s.tokenized[i] = len(c.Analyzer.Tokenizer.Tokenize([]byte(t)))
	}
	return s
}

// final renders the chain's output.
func (s *stages) final() ([]any, error) {
	streams := make([]analysis.TokenStream, len(s.texts))
	for i, t := range s.texts {
		streams[i] = s.chain.Analyzer.Analyze([]byte(t))
	}
	return s.render(streams, false, false)
}

// explain renders every step of a custom chain, or a named analyzer's output.
func (s *stages) explain() (map[string]any, error) {
	if !s.chain.Custom {
		toks, err := s.finalDetailed()
		if err != nil {
			return nil, err
		}
		return map[string]any{"custom_analyzer": false, "analyzer": map[string]any{"name": s.chain.Name, "tokens": toks}}, nil
	}
	streams := make([]analysis.TokenStream, len(s.texts))
	for i, t := range s.texts {
		streams[i] = s.chain.Analyzer.Tokenizer.Tokenize([]byte(t))
	}
	toks, err := s.render(streams, true, false)
	if err != nil {
		return nil, err
	}
	detail := map[string]any{"custom_analyzer": true, "charfilters": []any{},
		"tokenizer": map[string]any{"name": s.chain.Tokenizer, "tokens": toks}}
	filters := make([]any, 0, len(s.chain.Filters))
	for j, f := range s.chain.Analyzer.TokenFilters {
		for i := range streams {
			streams[i] = f.Filter(streams[i])
		}
		if toks, err = s.render(streams, true, true); err != nil {
			return nil, err
		}
		filters = append(filters, map[string]any{"name": s.chain.Filters[j], "tokens": toks})
	}
	detail["tokenfilters"] = filters
	return detail, nil
}

func (s *stages) finalDetailed() ([]any, error) {
	streams := make([]analysis.TokenStream, len(s.texts))
	for i, t := range s.texts {
		streams[i] = s.chain.Analyzer.Analyze([]byte(t))
	}
	return s.render(streams, true, len(s.chain.Analyzer.TokenFilters) > 0)
}

// render turns the streams of each text into ES's tokens.
func (s *stages) render(streams []analysis.TokenStream, detailed, keyword bool) ([]any, error) {
	var out []any
	lastPos, lastOff := -1, 0
	for i, stream := range streams {
		last := s.tokenized[i]
		for _, t := range stream {
			if len(out) == s.max {
				return nil, eserr.IllegalArgument("The number of tokens produced by calling _analyze has exceeded the allowed maximum of [%d]. This limit can be set by changing the [index.analyze.max_token_count] index level setting.", s.max)
			}
			out = append(out, s.token(t, lastPos, lastOff, s.units[i], detailed, keyword))
			last = max(last, t.Position)
		}
		lastPos += last + s.chain.PositionGap
		lastOff += s.units[i][len(s.texts[i])] + 1
	}
	if out == nil {
		out = []any{}
	}
	return out, nil
}

func (s *stages) token(t *analysis.Token, lastPos, lastOff int, units []int, detailed, keyword bool) map[string]any {
	m := map[string]any{
		"token":        string(t.Term),
		"start_offset": lastOff + units[min(t.Start, len(units)-1)],
		"end_offset":   lastOff + units[min(t.End, len(units)-1)],
		"type":         tokenType(t, s.chain.TokenizerType),
		"position":     lastPos + t.Position,
	}
	if !detailed {
		return m
	}
	extra := map[string]any{"bytes": bytesString(t.Term), "positionLength": 1, "termFrequency": 1}
	if keyword {
		extra["keyword"] = t.KeyWord
	}
	for k, v := range extra {
		if s.attrs == nil || s.attrs[k] {
			m[k] = v
		}
	}
	return m
}

// tokenType names a token's type as ES's tokenizers do: the standard tokenizer's
// <ALPHANUM> and <NUM>, "word" for the others, SYNONYM for a synonym rule's output.
func tokenType(t *analysis.Token, tokenizer string) string {
	if t.Type == esanalysis.SynonymToken {
		return "SYNONYM"
	}
	if tokenizer != "standard" {
		return "word"
	}
	switch t.Type {
	case analysis.Numeric:
		return "<NUM>"
	case analysis.Ideographic:
		return "<IDEOGRAPHIC>"
	}
	return "<ALPHANUM>"
}

// bytesString shows a term's UTF-8 bytes as Lucene's BytesRef does: "[66 6f 6f]".
func bytesString(b []byte) string {
	parts := make([]string, len(b))
	for i, c := range b {
		parts[i] = fmt.Sprintf("%x", c)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// utf16Offsets maps each byte offset of s (and len(s)) to its offset in UTF-16 units.
func utf16Offsets(s string) []int {
	out := make([]int, len(s)+1)
	u := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		for j := 0; j < size; j++ {
			out[i+j] = u
		}
		u += utf16.RuneLen(r)
		i += size
	}
	out[len(s)] = u
	return out
}
