package esanalysis

import (
	"bytes"
	"errors"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/char/asciifolding"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/registry"
)

// fold folds each token to ASCII like ES's asciifolding filter; with preserveOriginal a
// token that changed is followed by its original at the same position, as Lucene emits it.
type fold struct {
	f        analysis.CharFilter
	preserve bool
}

func newFold(preserve bool) analysis.TokenFilter {
	return fold{f: asciifolding.New(), preserve: preserve}
}

func (f fold) Filter(in analysis.TokenStream) analysis.TokenStream {
	if !f.preserve {
		for _, t := range in {
			t.Term = f.term(t.Term)
		}
		return in
	}
	out := make(analysis.TokenStream, 0, len(in))
	for _, t := range in {
		orig := t.Term
		folded := f.term(append([]byte(nil), orig...))
		t.Term = folded
		out = append(out, t)
		if !bytes.Equal(folded, orig) {
			o := *t
			o.Term = orig
			out = append(out, &o)
		}
	}
	return out
}

// term folds one token. ASCII folds to itself, and most catalogs' words are ASCII: the
// token is returned as it is, where bleve's filter decodes it into runes and allocates
// three copies (a tenth of a search's CPU went to it when highlighting descriptions).
func (f fold) term(t []byte) []byte {
	for _, c := range t {
		if c >= utf8.RuneSelf {
			return f.f.Filter(t)
		}
	}
	return t
}

func newLowercase(c map[string]any, _ *registry.Cache) (analysis.TokenFilter, error) {
	lang, _ := c["language"].(string)
	switch lang {
	case "":
		return lowercase.NewLowerCaseFilter(), nil
	case "turkish":
		return turkishLower{}, nil
	}
	return nil, errors.New("lowercase [language] other than turkish is not supported by this engine")
}

// turkishLower lowercases as Lucene's TurkishLowerCaseFilter: I becomes dotless ı unless a
// combining dot above follows (then i, and the dot goes), İ becomes i.
type turkishLower struct{}

const combiningDotAbove = '\u0307'

func (turkishLower) Filter(in analysis.TokenStream) analysis.TokenStream {
	for _, t := range in {
		t.Term = turkishLowerTerm(t.Term)
	}
	return in
}

func turkishLowerTerm(term []byte) []byte {
	out := make([]byte, 0, len(term))
	for i := 0; i < len(term); {
		r, size := utf8.DecodeRune(term[i:])
		i += size
		switch r {
		case 'I':
			if dot := dotAfter(term[i:]); dot >= 0 {
				out = utf8.AppendRune(out, 'i')
				out = append(out, term[i:i+dot]...)
				i += dot + utf8.RuneLen(combiningDotAbove)
				continue
			}
			out = utf8.AppendRune(out, 'ı')
		case 'İ':
			out = append(out, 'i')
		default:
			out = utf8.AppendRune(out, unicode.ToLower(r))
		}
	}
	return out
}

// dotAfter returns the byte offset of a combining dot above that follows only other
// non-spacing marks, or -1.
func dotAfter(rest []byte) int {
	for j := 0; j < len(rest); {
		r, size := utf8.DecodeRune(rest[j:])
		if r == combiningDotAbove {
			return j
		}
		if !unicode.Is(unicode.Mn, r) {
			return -1
		}
		j += size
	}
	return -1
}
