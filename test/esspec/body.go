package esspec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/aislehq/aisle/test/conformance/yamlrest"
)

// BodyChecker takes a request body in pieces as it streams and gives its verdict at the
// end; it keeps no more of a newline-delimited body than its current line.
type BodyChecker interface {
	io.Writer
	Verdict() error
}

// CheckBody holds a whole body to the API: nil or empty means no body.
func CheckBody(api *yamlrest.API, body []byte) error {
	c := NewBodyChecker(api)
	_, _ = c.Write(body)
	return c.Verdict()
}

// NewBodyChecker returns the checker for api's body: none for an API that takes none,
// newline-delimited JSON for body.serialize "bulk", else one JSON object.
func NewBodyChecker(api *yamlrest.API) BodyChecker {
	switch {
	case !api.BodyAllowed:
		return &noBody{api: api}
	case api.Bulk:
		return &ndjsonBody{api: api, lines: linesFor(api.Name)}
	}
	return &jsonBody{api: api}
}

type noBody struct {
	api  *yamlrest.API
	size int
}

func (b *noBody) Write(p []byte) (int, error) { b.size += len(p); return len(p), nil }

func (b *noBody) Verdict() error {
	if b.size > 0 {
		return violation(b.api, "takes no body, got %d bytes", b.size)
	}
	return nil
}

type jsonBody struct {
	api *yamlrest.API
	buf bytes.Buffer
}

func (b *jsonBody) Write(p []byte) (int, error) { return b.buf.Write(p) }

func (b *jsonBody) Verdict() error {
	if b.buf.Len() == 0 {
		if b.api.BodyRequired {
			return violation(b.api, "requires a body")
		}
		return nil
	}
	keys, err := objectKeys(b.buf.Bytes())
	if err != nil {
		return violation(b.api, "body is not a JSON object: %v", err)
	}
	return unknownKey(b.api, keys)
}

// objectKeys returns the top-level keys of one JSON object, refusing anything else,
// trailing data and a key given twice (ES's parser refuses duplicate fields).
func objectKeys(b []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("want an object, got %v (%v)", t, err)
	}
	var keys []string
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := t.(string)
		if seen[k] {
			return nil, fmt.Errorf("duplicate field [%s]", k)
		}
		seen[k] = true
		keys = append(keys, k)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("data after the object")
	}
	return keys, nil
}
