package highlight

import (
	"sort"
	"strings"
)

// format writes a passage as ES's CustomPassageFormatter does: matches wrapped in the
// tags (overlapping ones merged, cut at the passage's end), text escaped by the encoder,
// and trimmed unless whole values were asked for.
func (t *text) format(p *passage, s *Settings) string {
	var sb strings.Builder
	pos := p.start
	ms := p.matches
	sort.Slice(ms, func(i, j int) bool { return ms[i].start < ms[j].start })
	for i := 0; i < len(ms); i++ {
		start, end := max(ms[i].start, pos), ms[i].end
		for i+1 < len(ms) && ms[i+1].start < end {
			i++
			end = max(end, ms[i].end)
		}
		end = min(end, p.end)
		if start >= end {
			continue
		}
		s.write(&sb, t.slice(pos, start))
		sb.WriteString(s.PreTag)
		s.write(&sb, t.slice(start, end))
		sb.WriteString(s.PostTag)
		pos = end
	}
	s.write(&sb, t.slice(pos, max(pos, p.end)))
	out := strings.TrimSuffix(sb.String(), "\u2029")
	if s.Fragments > 0 {
		out = strings.TrimFunc(out, func(r rune) bool { return r <= ' ' })
	}
	return out
}

// slice returns content between two offsets of one value.
func (t *text) slice(from, to int) []rune {
	if from >= to {
		return nil
	}
	v := t.valueAt(from)
	r := t.values[v]
	return r[from-t.base[v] : min(to-t.base[v], len(r))]
}

func (s *Settings) write(sb *strings.Builder, text []rune) {
	for _, c := range text {
		if !s.HTML {
			sb.WriteRune(c)
			continue
		}
		switch c {
		case '"':
			sb.WriteString("&quot;")
		case '&':
			sb.WriteString("&amp;")
		case '<':
			sb.WriteString("&lt;")
		case '>':
			sb.WriteString("&gt;")
		case '\'':
			sb.WriteString("&#x27;")
		case '/':
			sb.WriteString("&#x2F;")
		default:
			sb.WriteRune(c)
		}
	}
}

// noMatch is what ES shows of a field nothing marked when no_match_size is set: the
// start of the first value, up to the first word boundary after that many characters.
func (t *text) noMatch(s *Settings) []string {
	for v, r := range t.values {
		if len(r) == 0 {
			continue
		}
		end := len(r)
		if s.NoMatchSize < end {
			end = min(wordBreaks(r).following(s.NoMatchSize-1), len(r))
		}
		p := &passage{start: t.base[v], end: t.base[v] + end}
		if out := t.format(p, s); out != "" {
			return []string{out}
		}
		return nil
	}
	return nil
}
