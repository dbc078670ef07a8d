package mapper

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode/utf8"

	"github.com/valyala/fastjson"
)

// Sources are parsed with fastjson, which scans a product document about 25 times faster
// than encoding/json's reflection-driven decoder (decoding was a twentieth of indexing
// CPU), and then turned into the values encoding/json gives with UseNumber, which the
// mapping code reads.
var sourceParsers fastjson.ParserPool

// DecodeSource parses a document source: objects become map[string]any (the last of
// duplicate keys wins, as in encoding/json), arrays []any, numbers json.Number.
func DecodeSource(src []byte) (any, error) {
	// The parser alone accepts leading zeros and unknown escapes; the validator is strict,
	// as encoding/json and ES's parser are.
	if err := fastjson.ValidateBytes(src); err != nil {
		return nil, err
	}
	if !utf8.Valid(src) {
		// encoding/json would replace the bad bytes; ES's parser refuses them.
		return nil, errors.New("invalid UTF-8 in the document")
	}
	p := sourceParsers.Get()
	defer sourceParsers.Put(p)
	v, err := p.ParseBytes(src)
	if err != nil {
		return nil, err
	}
	var scratch []byte
	return plain(v, &scratch), nil
}

// plain copies a parsed value out of the parser's memory, which is reused.
func plain(v *fastjson.Value, scratch *[]byte) any {
	switch v.Type() {
	case fastjson.TypeObject:
		o, _ := v.Object()
		m := make(map[string]any, o.Len())
		o.Visit(func(k []byte, x *fastjson.Value) { m[string(k)] = plain(x, scratch) })
		return m
	case fastjson.TypeArray:
		a, _ := v.Array()
		out := make([]any, len(a))
		for i, x := range a {
			out[i] = plain(x, scratch)
		}
		return out
	case fastjson.TypeString:
		b, _ := v.StringBytes()
		return string(b)
	case fastjson.TypeNumber:
		*scratch = v.MarshalTo((*scratch)[:0])
		return json.Number(*scratch)
	case fastjson.TypeTrue:
		return true
	case fastjson.TypeFalse:
		return false
	}
	return nil
}

// Compact returns src without insignificant whitespace. Most sources (every bulk line) have
// none, and those are returned as they are, without a copy.
func Compact(src []byte) []byte {
	if !hasLooseSpace(src) {
		return src
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, src); err != nil {
		return src
	}
	return buf.Bytes()
}

// hasLooseSpace reports whether src has whitespace outside strings.
func hasLooseSpace(src []byte) bool {
	inString, escaped := false, false
	for _, c := range src {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && (c == ' ' || c == '\n' || c == '\r' || c == '\t'):
			return true
		}
	}
	return false
}
