package apiserver

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/catalog/stage"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/events"
	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/internal/tenancy"
)

// Error is a failure the client caused or must know about, with its HTTP status.
// Services return plain sentinel errors; statusOf maps them here, in one place.
type Error struct {
	Status  int
	Message string
}

func (e *Error) Error() string { return e.Message }

// errorf builds an *Error.
func errorf(status int, message string) *Error {
	return &Error{Status: status, Message: message}
}

// statusOf maps domain errors to HTTP statuses. With detail, the client gets the whole
// message from the sentinel on (it names the record, counts or limits); else the
// sentinel's own text.
var statusOf = []struct {
	err    error
	status int
	detail bool
}{
	{tenancy.ErrMissingKey, http.StatusUnauthorized, false},
	{tenancy.ErrMalformedKey, http.StatusUnauthorized, false},
	{tenancy.ErrInvalidKey, http.StatusUnauthorized, false},
	{tenancy.ErrExpiredKey, http.StatusUnauthorized, false},
	{tenancy.ErrRevokedKey, http.StatusUnauthorized, false},
	{tenancy.ErrOtherWorkspace, http.StatusForbidden, false},
	{tenancy.ErrScopeDenied, http.StatusForbidden, false},
	{tenancy.ErrIndexDenied, http.StatusForbidden, false},
	{tenancy.ErrIndexNotFound, http.StatusNotFound, false},
	{catalog.ErrInvalid, http.StatusBadRequest, true},
	{catalog.ErrPlanLimit, http.StatusPaymentRequired, true},
	{catalog.ErrVersionConflict, http.StatusConflict, false},
	{stage.ErrBatchConflict, http.StatusConflict, true},
	{stage.ErrClosed, http.StatusConflict, true},
	{stage.ErrOutdated, http.StatusConflict, true},
	{stage.ErrNotFound, http.StatusNotFound, true},
	{catalog.ErrIdempotencyMismatch, http.StatusUnprocessableEntity, false},
	{stage.ErrCountMismatch, http.StatusUnprocessableEntity, true},
	{catalog.ErrBusy, http.StatusServiceUnavailable, true},
	{catalog.ErrFenced, http.StatusServiceUnavailable, false},
	{catalog.ErrSwapBusy, http.StatusServiceUnavailable, false},
	{catalog.ErrLeaseLost, http.StatusServiceUnavailable, false},
	{es.ErrUnavailable, http.StatusServiceUnavailable, false},
}

// detailOf returns err's message from the sentinel's text on; an invalid request's
// message drops the sentinel, so it reads like "records[17]: objectID must be ...".
func detailOf(err, sentinel error) string {
	msg, head := err.Error(), sentinel.Error()
	if i := strings.Index(msg, head); i >= 0 {
		msg = msg[i:]
	}
	if errors.Is(sentinel, catalog.ErrInvalid) {
		msg = strings.TrimPrefix(msg, head+": ")
	}
	return msg
}

// classify returns the status and client-facing message of err. Errors it does not know
// are internal: the client gets a generic message and the log gets the detail.
func classify(err error) (int, string) {
	var e *Error
	if errors.As(err, &e) {
		return e.Status, e.Message
	}
	var fe *fiber.Error
	if errors.As(err, &fe) {
		return fe.Code, fiberMessage(fe)
	}
	if status, message, ok := classifyEvents(err); ok {
		return status, message
	}
	if status, message, ok := classifySearch(err); ok {
		return status, message
	}
	for _, m := range statusOf {
		if errors.Is(err, m.err) && m.detail {
			return m.status, detailOf(err, m.err)
		}
		if errors.Is(err, m.err) {
			if errors.Is(m.err, es.ErrUnavailable) {
				return m.status, "search backend unavailable; retry with backoff"
			}
			return m.status, m.err.Error()
		}
	}
	return http.StatusInternalServerError, "internal error; retry with backoff"
}

// fiberMessage rewords the errors Fiber raises itself (unknown route, body or headers
// too large, read timeout, a request that cannot be read).
func fiberMessage(fe *fiber.Error) string {
	switch fe.Code {
	case http.StatusNotFound:
		return "not found"
	case http.StatusRequestEntityTooLarge:
		return "request body too large"
	case http.StatusMethodNotAllowed:
		return "method not allowed"
	case http.StatusRequestTimeout:
		return "request timeout: the request did not arrive within the server's read timeout"
	case http.StatusRequestHeaderFieldsTooLarge:
		return "request headers too large"
	case http.StatusBadRequest:
		// Only fasthttp raises it, for a request it cannot read; its text quotes the
		// request's bytes, headers included.
		return "malformed HTTP request: its request line, headers or body framing cannot be read"
	}
	return fe.Message
}

// handleError is the app's one error handler: every failure becomes {"error": "..."}.
func handleError(c *fiber.Ctx, err error) error {
	status, message := classify(err)
	if status == http.StatusServiceUnavailable {
		c.Set(fiber.HeaderRetryAfter, "1")
	}
	if status >= http.StatusInternalServerError {
		loggerFrom(c.UserContext()).ErrorContext(c.UserContext(), "request failed", slog.Any("error", err))
	}
	return c.Status(status).JSON(fiber.Map{"error": message})
}

// classifySearch maps the errors of search, settings and public access. An invalid
// search names every broken rule, so its whole message goes to the client.
func classifySearch(err error) (int, string, bool) {
	switch {
	case errors.Is(err, searchquery.ErrInvalid):
		return http.StatusBadRequest, err.Error(), true
	case errors.Is(err, errSearchQuota):
		return http.StatusPaymentRequired, errSearchQuota.Error(), true
	case errors.Is(err, es.ErrUnavailable):
		return http.StatusServiceUnavailable, "search backend unavailable; retry with backoff", true
	}
	return 0, "", false
}

// classifyEvents maps the errors of the event endpoints: a body that is not a list of
// events is 400 with its reason; a backend that cannot record orders is 503, and the
// client resends.
func classifyEvents(err error) (int, string, bool) {
	switch {
	case errors.Is(err, events.ErrBadBody):
		return http.StatusBadRequest, err.Error(), true
	case errors.Is(err, events.ErrUnavailable):
		return http.StatusServiceUnavailable, events.ErrUnavailable.Error(), true
	}
	return 0, "", false
}
