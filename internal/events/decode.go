package events

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/aislehq/aisle/internal/strictjson"
)

// Limits of one request.
const (
	MaxServerEvents  = 200
	MaxBrowserEvents = 100
	MaxPastOrders    = 200
)

// ErrBadBody is a request body that is not a list of events (or orders): 400.
var ErrBadBody = errors.New("invalid body")

// DecodeEvents reads {"events": [...]} holding 1 to limit events, each kept raw so that
// one bad event is refused alone.
func DecodeEvents(body []byte, limit int) ([]json.RawMessage, error) {
	var b struct {
		Events *[]json.RawMessage `json:"events"`
	}
	if err := decodeBody(body, &b, "events"); err != nil {
		return nil, err
	}
	return checkCount(b.Events, "events", limit)
}

// DecodeOrders reads {"orders": [...]} holding 1 to MaxPastOrders orders.
func DecodeOrders(body []byte) ([]json.RawMessage, error) {
	var b struct {
		Orders *[]json.RawMessage `json:"orders"`
	}
	if err := decodeBody(body, &b, "orders"); err != nil {
		return nil, err
	}
	return checkCount(b.Orders, "orders", MaxPastOrders)
}

// decodeBody reads the body with the API's strict decoder (exact names, no duplicates,
// valid UTF-8 throughout, events included), so events obey the same rules as records.
func decodeBody(body []byte, v any, list string) error {
	if err := strictjson.Decode(body, v); err != nil {
		problem := strings.TrimPrefix(err.Error(), "invalid JSON body: ")
		return fmt.Errorf("%w: send a JSON object {%q: [...]}: %s", ErrBadBody, list, problem)
	}
	return nil
}

func checkCount(items *[]json.RawMessage, list string, limit int) ([]json.RawMessage, error) {
	switch {
	case items == nil:
		return nil, fmt.Errorf("%w: %s is required: send {%q: [...]}", ErrBadBody, list, list)
	case len(*items) == 0:
		return nil, fmt.Errorf("%w: %s is empty; send 1 to %d", ErrBadBody, list, limit)
	case len(*items) > limit:
		return nil, fmt.Errorf("%w: %d %s sent; at most %d per request", ErrBadBody, len(*items), list, limit)
	}
	return *items, nil
}

// jsonProblem says in a sentence what is wrong with a JSON value.
func jsonProblem(err error) string {
	var syntax *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fmt.Sprintf("syntax error at byte %d", syntax.Offset)
	case errors.As(err, &typeErr) && typeErr.Field != "":
		return fmt.Sprintf("%s must be %s", typeErr.Field, jsonKind(typeErr.Type.Kind().String()))
	case errors.As(err, &typeErr):
		return "must be " + jsonKind(typeErr.Type.Kind().String())
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the JSON value is incomplete"
	}
	if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return "unknown field " + field
	}
	return err.Error()
}

func jsonKind(kind string) string {
	switch kind {
	case "struct", "map":
		return "an object"
	case "slice", "array":
		return "an array"
	case "string":
		return "a string"
	case "ptr":
		return "a value of another type"
	}
	return "a number"
}
