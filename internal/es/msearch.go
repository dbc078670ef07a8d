package es

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
)

// MsearchBody is the NDJSON body of an _msearch: each search's header (its index) and
// body, a line each. Bodies are single-line JSON, as json.Marshal writes them.
func MsearchBody(indexes []string, bodies [][]byte) ([]byte, error) {
	var b bytes.Buffer
	for i, body := range bodies {
		header, err := json.Marshal(map[string]string{"index": indexes[i]})
		if err != nil {
			return nil, err
		}
		b.Write(header)
		b.WriteByte('\n')
		b.Write(bytes.TrimSpace(body))
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

// MsearchItems reads the answer to an _msearch of searches searches sent with Perform:
// each search's answer in order, or its failure classified as Classify classifies a
// search's own (a 404 is ErrNotFound). An answer with another number of responses is
// ErrUnavailable.
func MsearchItems(searches int, res *http.Response, err error) ([][]byte, []error, error) {
	raw, err := ReadBody(res, err)
	if err != nil {
		return nil, nil, err
	}
	var ans struct {
		Responses []json.RawMessage `json:"responses"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		return nil, nil, fmt.Errorf("%w: decoding an _msearch answer: %w", ErrUnavailable, err)
	}
	if len(ans.Responses) != searches {
		return nil, nil, fmt.Errorf("%w: an _msearch of %d searches answered with %d", ErrUnavailable, searches, len(ans.Responses))
	}
	out, errs := make([][]byte, searches), make([]error, searches)
	for i, r := range ans.Responses {
		out[i], errs[i] = r, itemError(r)
	}
	return out, errs, nil
}

// itemError is the failure one response of an _msearch reports, classified; nil for an
// answer.
func itemError(raw json.RawMessage) error {
	var item struct {
		Status int             `json:"status"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(raw, &item); err != nil {
		return fmt.Errorf("%w: decoding an _msearch response: %w", ErrUnavailable, err)
	}
	if len(item.Error) == 0 || string(item.Error) == "null" {
		return nil
	}
	esErr := types.NewElasticsearchError()
	if err := json.Unmarshal(raw, esErr); err != nil || esErr.Status == 0 {
		esErr.Status = item.Status
	}
	if esErr.Status == 0 {
		esErr.Status = http.StatusInternalServerError
	}
	return Classify(esErr)
}
