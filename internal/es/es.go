// Package es connects to Elasticsearch (or the embedded engine, which speaks the same
// REST API) through the typed client, and classifies its errors in one place.
//
// Callers check errors with errors.Is against ErrNotFound, ErrConflict and
// ErrUnavailable; the original error stays wrapped for its message.
package es

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
)

var (
	// ErrNotFound: the index, alias or document does not exist (HTTP 404).
	ErrNotFound = errors.New("elasticsearch: not found")
	// ErrConflict: the resource already exists or a version check failed (HTTP 409, or
	// 400 resource_already_exists_exception).
	ErrConflict = errors.New("elasticsearch: conflict")
	// ErrUnavailable: the backend did not answer, or answered with a server error.
	ErrUnavailable = errors.New("elasticsearch: unavailable")
)

// New returns a typed client for the cluster at url. It retries idempotent failures a few
// times with a short backoff, and a read whose answer was cut off (readRetry); longer
// outages are left to the caller (the operator requeues).
func New(url string) (*elasticsearch.TypedClient, error) {
	if url == "" {
		return nil, errors.New("elasticsearch URL is empty")
	}
	client, err := elasticsearch.NewTypedClient(elasticsearch.Config{
		Addresses:    []string{url},
		MaxRetries:   2,
		RetryBackoff: func(attempt int) time.Duration { return time.Duration(attempt) * 100 * time.Millisecond },
		Transport:    readRetry{next: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 16, IdleConnTimeout: 90 * time.Second}},
	})
	if err != nil {
		return nil, fmt.Errorf("creating Elasticsearch client for %s: %w", url, err)
	}
	return client, nil
}

// Classify wraps err with the sentinel matching it, so errors.Is works on the result.
// A nil error stays nil.
func Classify(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, ErrNotFound) || errors.Is(err, ErrConflict) || errors.Is(err, ErrUnavailable) {
		return err
	}
	var esErr *types.ElasticsearchError
	if !errors.As(err, &esErr) {
		// No Elasticsearch answer at all: connection refused, timeout, TLS, DNS.
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	switch {
	case esErr.Status == http.StatusNotFound:
		return fmt.Errorf("%w: %w", ErrNotFound, err)
	case esErr.Status == http.StatusConflict, esErr.ErrorCause.Type == "resource_already_exists_exception":
		return fmt.Errorf("%w: %w", ErrConflict, err)
	case esErr.Status >= 500 || esErr.Status == http.StatusTooManyRequests:
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return err
}

// StatusError classifies a bare HTTP status, for typed calls that answer a bool or a
// status without an error body (exists checks).
func StatusError(status int, what string) error {
	switch {
	case status >= 200 && status < 300:
		return nil
	case status == http.StatusNotFound:
		return fmt.Errorf("%w: %s", ErrNotFound, what)
	case status == http.StatusConflict:
		return fmt.Errorf("%w: %s", ErrConflict, what)
	case status >= 500 || status == http.StatusTooManyRequests:
		return fmt.Errorf("%w: %s answered %d", ErrUnavailable, what, status)
	}
	return fmt.Errorf("elasticsearch: %s answered %d", what, status)
}

// ResponseError turns a non-2xx answer of a Perform call into a classified error, as Do
// would: the Elasticsearch error body decoded into types.ElasticsearchError. A 2xx
// answer is nil. The caller still closes the body.
func ResponseError(res *http.Response) error {
	if res.StatusCode >= 200 && res.StatusCode < 300 {
		return nil
	}
	esErr := types.NewElasticsearchError()
	if err := json.NewDecoder(res.Body).Decode(esErr); err != nil || esErr.Status == 0 {
		esErr.Status = res.StatusCode
	}
	return Classify(esErr)
}

// ReadBody returns the whole body of a Perform call's answer, which it closes: a
// transport failure, a non-2xx answer (see ResponseError) or a failed read becomes a
// classified error.
func ReadBody(res *http.Response, err error) ([]byte, error) {
	if err != nil {
		return nil, Classify(err)
	}
	defer func() { _ = res.Body.Close() }()
	if err := ResponseError(res); err != nil {
		return nil, err
	}
	var raw []byte
	if b, ok := res.Body.(answerBody); ok {
		raw, err = b.rest() // read whole already (readRetry)
	} else {
		raw, err = io.ReadAll(res.Body)
	}
	if err != nil {
		return nil, Classify(err)
	}
	return raw, nil
}
