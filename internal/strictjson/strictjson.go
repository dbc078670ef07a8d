// Package strictjson decodes request bodies exactly as the API's contract reads them:
// one JSON object, member names matching their field's name case-sensitively, no
// unknown or repeated member, no string that is not valid UTF-8 (encoding/json would
// replace its bytes with U+FFFD and store what the client never sent). Its errors say
// what is wrong and where, in the request's field names.
package strictjson

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

var strictOptions = jsonv2.JoinOptions(
	jsonv2.RejectUnknownMembers(true),
	jsonv2.MatchCaseInsensitiveNames(false),
	jsontext.AllowDuplicateNames(false),
	jsontext.AllowInvalidUTF8(false),
)

var (
	// ErrEmpty: the body holds nothing but whitespace.
	ErrEmpty = errors.New("request body is empty; expected a JSON object")
	// ErrInvalid: the body is not a JSON object the target takes; the problem and its
	// place follow the sentinel's text.
	ErrInvalid = errors.New("invalid JSON body")
)

// Decode decodes a JSON object body into v. Its error is ErrEmpty, or ErrInvalid
// wrapped in a message "invalid JSON body: " that names the problem and its place.
func Decode(body []byte, v any) error {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return ErrEmpty
	}
	if trimmed[0] != '{' {
		return fmt.Errorf("%w: expected a JSON object", ErrInvalid)
	}
	if err := jsonv2.Unmarshal(trimmed, v, strictOptions); err != nil {
		return fmt.Errorf("%w: %s", ErrInvalid, describeJSONError(err, trimmed))
	}
	return nil
}

// Problem is what a type's own UnmarshalJSON says is wrong with its value: Decode
// names it at the value's field, as it is.
type Problem struct{ Msg string }

func (p *Problem) Error() string { return p.Msg }

// describeJSONError says what is wrong and where, in the request's field names.
func describeJSONError(err error, body []byte) string {
	var syntax *jsontext.SyntacticError
	var semantic *jsonv2.SemanticError
	var problem *Problem
	switch {
	case errors.As(err, &problem) && errors.As(err, &semantic):
		return fmt.Sprintf("field %q: %s", fieldPath(semantic.JSONPointer), problem.Msg)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the JSON value is incomplete"
	case errors.As(err, &syntax):
		return fmt.Sprintf("syntax error at byte %d%s: %s", syntax.ByteOffset, at(syntax.JSONPointer), causeOf(syntax.Err))
	case errors.As(err, &semantic) && errors.Is(err, jsonv2.ErrUnknownName):
		return fmt.Sprintf("unknown field %q", lastToken(semantic.JSONPointer))
	case errors.As(err, &semantic) && semantic.GoType != nil && semantic.JSONKind == '0' && integral(semantic.GoType.Kind()):
		// A fraction or a number past the type's range: name the number sent, which says
		// which of the two it is.
		return fmt.Sprintf("field %q must be an integer, not %s", fieldPath(semantic.JSONPointer), valueAt(body, semantic.ByteOffset))
	case errors.As(err, &semantic) && semantic.GoType != nil && semantic.JSONKind != 0:
		return fmt.Sprintf("field %q must be %s, not %s", fieldPath(semantic.JSONPointer), jsonType(semantic.GoType.Kind().String()), kindName(semantic.JSONKind, semantic.Err))
	case errors.As(err, &semantic):
		return fmt.Sprintf("field %q: %s", fieldPath(semantic.JSONPointer), causeOf(semantic.Err))
	}
	return err.Error()
}

func at(p jsontext.Pointer) string {
	if p == "" {
		return ""
	}
	return fmt.Sprintf(" (field %q)", fieldPath(p))
}

// fieldPath writes a JSON pointer (/filters/in/0) as the API names places (filters.in[0]).
func fieldPath(p jsontext.Pointer) string {
	var b strings.Builder
	for tok := range p.Tokens() {
		if isIndex(tok) {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}

func lastToken(p jsontext.Pointer) string {
	return p.LastToken()
}

func isIndex(tok string) bool {
	if tok == "" {
		return false
	}
	for _, r := range tok {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func causeOf(err error) string {
	if err == nil {
		return "invalid value"
	}
	return strings.TrimPrefix(err.Error(), "jsontext: ")
}

// kindName names the JSON value found: a number out of range says so.
func kindName(k jsontext.Kind, cause error) string {
	switch k {
	case '"':
		return "string"
	case '0':
		if cause != nil {
			return "a number out of range"
		}
		return "number"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	case '{':
		return "object"
	case '[':
		return "array"
	}
	return k.String()
}

func jsonType(kind string) string {
	switch kind {
	case "struct", "map":
		return "an object"
	case "slice", "array":
		return "an array"
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "int", "int32", "int64", "uint", "uint32", "uint64", "float32", "float64":
		return "a number"
	case "ptr":
		return "a value of another type"
	}
	return kind
}

func integral(k reflect.Kind) bool {
	return reflect.Int <= k && k <= reflect.Uint64
}

// valueAt is the JSON value that starts at offset in body, as sent (cut to 32 bytes).
func valueAt(body []byte, offset int64) string {
	if offset < 0 || offset >= int64(len(body)) {
		return "that number"
	}
	v, err := jsontext.NewDecoder(bytes.NewReader(body[offset:])).ReadValue()
	if err != nil || len(v) > 32 {
		return "that number"
	}
	return string(v)
}
