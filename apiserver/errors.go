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
	"github.com/aislehq/aisle/internal/history"
	"github.com/aislehq/aisle/internal/merch"
	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/internal/settingsfence"
	"github.com/aislehq/aisle/internal/settingsstore"
	"github.com/aislehq/aisle/internal/strictjson"
	"github.com/aislehq/aisle/internal/tenancy"
)

// message says what a client reads of an error its row matched.
type message int

const (
	// sentinelText: the sentinel's own text.
	sentinelText message = iota
	// fromSentinel: the error's text from the sentinel's on (it names the record, the
	// field, counts or limits), without what wrapped it.
	fromSentinel
	// afterSentinel: as fromSentinel without the sentinel's text, so an invalid record
	// reads "records[17]: objectID must be ...".
	afterSentinel
	// fixedText: the row's text, where the sentinel's would mean nothing to a client.
	fixedText
)

// errorRow answers the errors that are (or wrap) err with status and a message.
type errorRow struct {
	err     error
	status  int
	message message
	text    string // the message, for fixedText
}

// errorTable maps errors to answers, in one place: handlers and services return sentinel
// errors, wrapped with detail, and the first row an error matches answers it. Order
// matters where an error wraps two sentinels: a service's sentinel comes before the
// backend failure it may wrap, so that its own message reaches the client.
var errorTable = []errorRow{
	// The server's state and the request's shape (errors.go's own sentinels below).
	{errNotReady, http.StatusServiceUnavailable, sentinelText, ""},
	{errNoBackend, http.StatusServiceUnavailable, sentinelText, ""},
	{errRateLimited, http.StatusTooManyRequests, sentinelText, ""},
	{errNotJSON, http.StatusUnsupportedMediaType, sentinelText, ""},
	{errEventsNotText, http.StatusUnsupportedMediaType, sentinelText, ""},
	{errOriginNotAllowed, http.StatusForbidden, sentinelText, ""},
	{errRecordsRequired, http.StatusBadRequest, sentinelText, ""},
	{errDeleteScope, http.StatusBadRequest, sentinelText, ""},
	{errPolicyRequired, http.StatusBadRequest, sentinelText, ""},
	{errObjectIDEscape, http.StatusBadRequest, sentinelText, ""},
	{errFieldEscape, http.StatusBadRequest, sentinelText, ""},
	{errQueries, http.StatusBadRequest, fromSentinel, ""},
	{errIndexRequired, http.StatusBadRequest, sentinelText, ""},
	{errPublicIDRequired, http.StatusBadRequest, sentinelText, ""},
	{strictjson.ErrEmpty, http.StatusBadRequest, sentinelText, ""},
	{strictjson.ErrInvalid, http.StatusBadRequest, fromSentinel, ""},
	{errSearchQuota, http.StatusPaymentRequired, sentinelText, ""},

	{tenancy.ErrMissingKey, http.StatusUnauthorized, sentinelText, ""},
	{tenancy.ErrMalformedKey, http.StatusUnauthorized, sentinelText, ""},
	{tenancy.ErrInvalidKey, http.StatusUnauthorized, sentinelText, ""},
	{tenancy.ErrExpiredKey, http.StatusUnauthorized, sentinelText, ""},
	{tenancy.ErrRevokedKey, http.StatusUnauthorized, sentinelText, ""},
	{tenancy.ErrInvalidSecuredKey, http.StatusUnauthorized, fromSentinel, ""},
	{tenancy.ErrOtherWorkspace, http.StatusForbidden, sentinelText, ""},
	{tenancy.ErrScopeDenied, http.StatusForbidden, sentinelText, ""},
	{tenancy.ErrSecuredKeyDenied, http.StatusForbidden, sentinelText, ""},
	{tenancy.ErrIndexDenied, http.StatusForbidden, sentinelText, ""},
	{tenancy.ErrIndexNotFound, http.StatusNotFound, sentinelText, ""},

	{settingsstore.ErrNoKubernetes, http.StatusServiceUnavailable, sentinelText, ""},
	{settingsstore.ErrIndexNotFound, http.StatusNotFound, sentinelText, ""},
	{settingsstore.ErrInvalidSettings, http.StatusBadRequest, fromSentinel, ""},
	{settingsstore.ErrInvalidPolicy, http.StatusBadRequest, fromSentinel, ""},
	{settingsfence.ErrNotSettled, http.StatusServiceUnavailable, sentinelText, ""},
	{settingsstore.ErrNoHistory, http.StatusServiceUnavailable, sentinelText, ""},
	{history.ErrVersionNotFound, http.StatusNotFound, fromSentinel, ""},
	{errBadVersion, http.StatusBadRequest, sentinelText, ""},
	{searchquery.ErrInvalid, http.StatusBadRequest, fromSentinel, ""},

	{merch.ErrInvalid, http.StatusBadRequest, fromSentinel, ""},
	{merch.ErrTooMany, http.StatusBadRequest, fromSentinel, ""},
	{merch.ErrBadParameter, http.StatusBadRequest, fromSentinel, ""},
	{merch.ErrNotFound, http.StatusNotFound, sentinelText, ""},

	{events.ErrBadBody, http.StatusBadRequest, fromSentinel, ""},
	{events.ErrBadParameter, http.StatusBadRequest, fromSentinel, ""},
	{events.ErrUnavailable, http.StatusServiceUnavailable, sentinelText, ""}, // the client resends

	{catalog.ErrInvalid, http.StatusBadRequest, afterSentinel, ""},
	{catalog.ErrCursorExpired, http.StatusGone, sentinelText, ""},
	{catalog.ErrPlanLimit, http.StatusPaymentRequired, fromSentinel, ""},
	{catalog.ErrVersionConflict, http.StatusConflict, sentinelText, ""},
	{stage.ErrBatchConflict, http.StatusConflict, fromSentinel, ""},
	{stage.ErrClosed, http.StatusConflict, fromSentinel, ""},
	{stage.ErrOutdated, http.StatusConflict, fromSentinel, ""},
	{stage.ErrNotFound, http.StatusNotFound, fromSentinel, ""},
	{catalog.ErrIdempotencyMismatch, http.StatusUnprocessableEntity, sentinelText, ""},
	{stage.ErrCountMismatch, http.StatusUnprocessableEntity, fromSentinel, ""},
	{catalog.ErrBusy, http.StatusServiceUnavailable, fromSentinel, ""},
	{catalog.ErrFenced, http.StatusServiceUnavailable, sentinelText, ""},
	{catalog.ErrSwapBusy, http.StatusServiceUnavailable, sentinelText, ""},
	{catalog.ErrLeaseLost, http.StatusServiceUnavailable, sentinelText, ""},

	// Last: the backend failed, and no service said more about it.
	{es.ErrUnavailable, http.StatusServiceUnavailable, fixedText, "search backend unavailable; retry with backoff"},
}

// The request-shape and server-state errors of this package: a body or header the
// contract refuses before any service sees the request.
var (
	errNotReady         = errors.New("not ready: informers are not in sync yet")
	errNoBackend        = errors.New("no search backend configured")
	errRateLimited      = errors.New("rate limit reached; retry after the number of seconds in Retry-After")
	errNotJSON          = errors.New("request body must be sent with Content-Type: application/json")
	errEventsNotText    = errors.New("events must be sent with Content-Type: text/plain or application/json")
	errOriginNotAllowed = errors.New("origin not allowed: send an Origin header with one of the index's allowed origins")
	errRecordsRequired  = errors.New(`records is required: send {"records": [...]}`)
	errPolicyRequired   = errors.New(`policy is required: send {"policy": {...}}`)
	errObjectIDEscape   = errors.New("objectID: invalid percent-encoding")
	errFieldEscape      = errors.New("field: invalid percent-encoding")
	// errQueries: a multi-search's queries are missing or too many; the count follows.
	errQueries          = errors.New("queries")
	errIndexRequired    = errors.New("index is required: name the index each query searches")
	errPublicIDRequired = errors.New("publicId is required: name the public ID of the index each query searches")
	// errSearchQuota: the workspace used its monthly searches.
	errSearchQuota = errors.New("plan limit reached: the workspace has used its monthly searches")
)

// classify returns the status and client-facing message of err. Fiber's own errors
// carry their status; every other error is answered by the first row of errorTable it
// matches. Errors no row knows are internal: the client gets a generic message and the
// log gets the detail.
func classify(err error) (int, string) {
	var fe *fiber.Error
	if errors.As(err, &fe) {
		return fe.Code, fiberMessage(fe)
	}
	for _, row := range errorTable {
		if errors.Is(err, row.err) {
			return row.status, row.messageOf(err)
		}
	}
	return http.StatusInternalServerError, "internal error; retry with backoff"
}

// messageOf is the message the row's rule makes of err.
func (r errorRow) messageOf(err error) string {
	head := r.err.Error()
	switch r.message {
	case fromSentinel:
		return fromText(err.Error(), head)
	case afterSentinel:
		return strings.TrimPrefix(fromText(err.Error(), head), head+": ")
	case fixedText:
		return r.text
	}
	return head
}

// fromText returns msg from the first occurrence of head on (all of msg without it).
func fromText(msg, head string) string {
	if i := strings.Index(msg, head); i >= 0 {
		return msg[i:]
	}
	return msg
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
