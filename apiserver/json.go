package apiserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/gofiber/fiber/v2"
)

// decodeStrict decodes a JSON body into v, refusing unknown fields, trailing data and
// empty bodies with a 400 that says why.
func decodeStrict(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return errorf(fiber.StatusBadRequest, "request body is empty; expected a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errorf(fiber.StatusBadRequest, "invalid JSON body: "+describeJSONError(err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errorf(fiber.StatusBadRequest, "invalid JSON body: unexpected data after the JSON value")
	}
	return nil
}

func describeJSONError(err error) string {
	var syntax *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fmt.Sprintf("syntax error at byte %d: %s", syntax.Offset, syntax.Error())
	case errors.As(err, &typeErr):
		if typeErr.Field != "" {
			return fmt.Sprintf("field %q must be %s, not %s", typeErr.Field, jsonType(typeErr.Type.Kind().String()), typeErr.Value)
		}
		return fmt.Sprintf("expected %s, not %s", jsonType(typeErr.Type.Kind().String()), typeErr.Value)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the JSON value is incomplete"
	}
	return err.Error()
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
	}
	return kind
}
