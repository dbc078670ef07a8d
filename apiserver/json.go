package apiserver

import (
	"github.com/gofiber/fiber/v2"

	"github.com/aislehq/aisle/internal/strictjson"
)

// decodeStrict decodes a JSON object body into v, refusing anything else (an empty
// body, null, an array), unknown or mis-cased fields, invalid UTF-8 and trailing data
// with a 400 that says why (see internal/strictjson).
func decodeStrict(body []byte, v any) error {
	if err := strictjson.Decode(body, v); err != nil {
		return errorf(fiber.StatusBadRequest, err.Error())
	}
	return nil
}
