package es

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
)

func esError(status int, typ string) error {
	return &types.ElasticsearchError{Status: status, ErrorCause: types.ErrorCause{Type: typ}}
}

func TestClassify(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want error
	}{
		{"404", esError(404, "index_not_found_exception"), ErrNotFound},
		{"409", esError(409, "version_conflict_engine_exception"), ErrConflict},
		{"exists", esError(400, "resource_already_exists_exception"), ErrConflict},
		{"503", esError(503, "unavailable"), ErrUnavailable},
		{"refused", errors.New("dial tcp: connection refused"), ErrUnavailable},
		{"wrapped 404", fmt.Errorf("creating: %w", esError(404, "x")), ErrNotFound},
	}
	for _, c := range cases {
		if got := Classify(c.err); !errors.Is(got, c.want) {
			t.Errorf("%s: Classify = %v, want %v", c.name, got, c.want)
		}
	}
	if err := Classify(esError(400, "illegal_argument_exception")); errors.Is(err, ErrUnavailable) || errors.Is(err, ErrNotFound) {
		t.Errorf("400 classified as %v", err)
	}
	if Classify(nil) != nil {
		t.Error("Classify(nil) != nil")
	}
}

//nolint:bodyclose // ReadBody closes every answer it is given
func TestReadBody(t *testing.T) {
	answer := func(status int, body string) *http.Response {
		return &http.Response{StatusCode: status, Body: io.NopCloser(strings.NewReader(body))}
	}
	if raw, err := ReadBody(answer(200, `{"hits":{}}`), nil); err != nil || string(raw) != `{"hits":{}}` {
		t.Errorf("200: got %q, %v", raw, err)
	}
	missing := answer(404, `{"error":{"type":"index_not_found_exception","reason":"no such index"},"status":404}`)
	if _, err := ReadBody(missing, nil); !errors.Is(err, ErrNotFound) {
		t.Errorf("404: got %v, want ErrNotFound", err)
	}
	if _, err := ReadBody(nil, errors.New("dial tcp: connection refused")); !errors.Is(err, ErrUnavailable) {
		t.Errorf("transport failure: got %v, want ErrUnavailable", err)
	}
}
