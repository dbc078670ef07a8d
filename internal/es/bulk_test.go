package es

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
)

func answer(status int, body string) *http.Response {
	return &http.Response{StatusCode: status, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(body))}
}

// A _bulk answer gives one item per action, in order, whatever the operation, with the
// failure of those that failed.
func TestBulkItems(t *testing.T) {
	items, err := BulkItems(3, answer(200, `{"took":1,"errors":true,"items":[
		{"create":{"_index":"i","_id":"a","_seq_no":3,"_primary_term":1,"status":201}},
		{"create":{"_index":"i","_id":"b","status":409,"error":{"type":"version_conflict_engine_exception","reason":"exists"}}},
		{"index":{"_index":"i","_id":"c","status":200,"_seq_no":4,"_primary_term":1}}]}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 3 || items[0].ID != "a" || *items[0].SeqNo != 3 || items[1].Status != 409 ||
		items[1].Error == nil || items[1].Error.Type != "version_conflict_engine_exception" || items[2].Error != nil {
		t.Fatalf("items: %+v", items)
	}
	if _, err := BulkItems(1, answer(200, `{"items":[`), nil); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("a cut answer: %v, want ErrUnavailable", err)
	}
	if _, err := BulkItems(2, answer(200, `{"items":[{"index":{"status":201}}]}`), nil); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("one item for two actions: %v, want ErrUnavailable", err)
	}
	if _, err := BulkItems(1, answer(503, `{"error":{"type":"x","reason":"y"},"status":503}`), nil); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("a 503: %v, want ErrUnavailable", err)
	}
}
