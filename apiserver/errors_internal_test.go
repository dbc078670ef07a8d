package apiserver

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/events"
	"github.com/aislehq/aisle/internal/settingsstore"
	"github.com/aislehq/aisle/internal/strictjson"
	"github.com/aislehq/aisle/internal/tenancy"
)

// The error table is checked without a server: which status and message an error gets,
// and that no row hides another.

func TestClassifyAnswersEachErrorByItsRow(t *testing.T) {
	cases := []struct {
		name    string
		err     error
		status  int
		message string
	}{
		{"a request-shape sentinel, by its text", errNotJSON, 415, errNotJSON.Error()},
		{"an invalid body, from the sentinel on",
			fmt.Errorf("%w: unknown field %q", strictjson.ErrInvalid, "x"), 400, `invalid JSON body: unknown field "x"`},
		{"a tenancy sentinel wrapped by a layer, by its text",
			fmt.Errorf("authorizing: %w", tenancy.ErrScopeDenied), 403, tenancy.ErrScopeDenied.Error()},
		{"invalid settings keep the fields they name, without what wrapped them",
			fmt.Errorf("PUT /config: %w", fmt.Errorf("%w: language: Unsupported value", settingsstore.ErrInvalidSettings)),
			400, "invalid settings: language: Unsupported value"},
		{"an invalid record drops the sentinel's text",
			fmt.Errorf("%w: records[17]: objectID must be a string", catalog.ErrInvalid), 400, "records[17]: objectID must be a string"},
		{"a plan limit keeps its counts", fmt.Errorf("writing: %w: 12 records over 10", catalog.ErrPlanLimit), 402, "plan limit reached: 12 records over 10"},
		{"the backend's failure, in a fixed text",
			fmt.Errorf("searching x: %w: 502", es.ErrUnavailable), 503, "search backend unavailable; retry with backoff"},
		{"events the backend could not record, by the events' text",
			fmt.Errorf("%w: %w", events.ErrUnavailable, es.ErrUnavailable), 503, events.ErrUnavailable.Error()},
		{"a catalog error wrapping the backend's failure keeps its detail",
			fmt.Errorf("%w: batch %q is still being uploaded: %w", catalog.ErrBusy, "b1", es.ErrUnavailable),
			503, `a request with the same key is still in progress; retry shortly: batch "b1" is still being uploaded: elasticsearch: unavailable`},
		{"Fiber's own error, reworded", fiber.NewError(http.StatusNotFound, "Cannot GET /x"), 404, "not found"},
		{"an error no row knows, as internal", errors.New("boom"), 500, "internal error; retry with backoff"},
	}
	for _, c := range cases {
		status, message := classify(c.err)
		if status != c.status || message != c.message {
			t.Errorf("%s: got %d %q, want %d %q", c.name, status, message, c.status, c.message)
		}
	}
}

// TestNoRowHidesALaterOne: an error made of a row's sentinel (and of es.ErrUnavailable,
// which services wrap beside their own) is answered by that row, not by one above it.
func TestNoRowHidesALaterOne(t *testing.T) {
	for i, row := range errorTable {
		for _, err := range []error{row.err, fmt.Errorf("%w: detail: %w", row.err, es.ErrUnavailable)} {
			status, message := classify(err)
			if status != row.status || message != row.messageOf(err) {
				t.Errorf("row %d (%q): %v is answered %d %q, not by its row", i, row.err, err, status, message)
			}
		}
	}
}
