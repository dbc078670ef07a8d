package es

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
	"github.com/go-json-experiment/json/jsontext"
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
	items, err := msearchResponses(raw)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: decoding an _msearch answer: %w", ErrUnavailable, err)
	}
	if len(items) != searches {
		return nil, nil, fmt.Errorf("%w: an _msearch of %d searches answered with %d", ErrUnavailable, searches, len(items))
	}
	out, errs := make([][]byte, searches), make([]error, searches)
	for i, it := range items {
		out[i], errs[i] = it.raw, itemError(it)
	}
	return out, errs, nil
}

// msearchItem is one response of an _msearch answer: its bytes (a slice of the
// answer's), and its status and error when it failed.
type msearchItem struct {
	raw    []byte
	status int
	err    []byte
}

// msearchResponses reads the responses of an _msearch answer in one pass over its bytes:
// each response's top-level members are read for its status and error, the others
// skipped. The answers are the bulk of what a search with promoted records reads (a page
// of hits with their sources and highlights); decoding them whole to find the error
// member, then again to shape them, cost more than the search's own shaping.
func msearchResponses(raw []byte) ([]msearchItem, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(raw))
	var out []msearchItem
	err := eachMember(dec, func(name string) error {
		if name != "responses" {
			return dec.SkipValue()
		}
		return eachElement(dec, func() error {
			it, err := readItem(dec, raw)
			out = append(out, it)
			return err
		})
	})
	return out, err
}

// readItem reads the response dec is at, an object.
func readItem(dec *jsontext.Decoder, raw []byte) (msearchItem, error) {
	var it msearchItem
	from := dec.InputOffset()
	err := eachMember(dec, func(name string) error {
		switch name {
		case "status":
			v, err := dec.ReadValue()
			if err == nil {
				it.status, err = strconv.Atoi(string(v))
			}
			return err
		case "error":
			v, err := dec.ReadValue()
			if v.Kind() != 'n' {
				it.err = bytes.Clone(v)
			}
			return err
		}
		return dec.SkipValue()
	})
	it.raw = bytes.TrimLeft(raw[from:dec.InputOffset()], " \t\r\n,")
	return it, err
}

// eachMember calls read with the name of each member of the object dec is at, which must
// read the member's value.
func eachMember(dec *jsontext.Decoder, read func(name string) error) error {
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return errors.Join(errors.New("not an object"), err)
	}
	for dec.PeekKind() != '}' {
		name, err := dec.ReadToken()
		if err != nil {
			return err
		}
		if err := read(name.String()); err != nil {
			return err
		}
	}
	_, err := dec.ReadToken()
	return err
}

// eachElement calls read at each element of the array dec is at.
func eachElement(dec *jsontext.Decoder, read func() error) error {
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '[' {
		return errors.Join(errors.New("not an array"), err)
	}
	for dec.PeekKind() != ']' {
		if err := read(); err != nil {
			return err
		}
	}
	_, err := dec.ReadToken()
	return err
}

// itemError is the failure one response of an _msearch reports, classified; nil for an
// answer.
func itemError(it msearchItem) error {
	if it.err == nil {
		return nil
	}
	esErr := types.NewElasticsearchError()
	if err := json.Unmarshal(it.raw, esErr); err != nil || esErr.Status == 0 {
		esErr.Status = it.status
	}
	if esErr.Status == 0 {
		esErr.Status = http.StatusInternalServerError
	}
	return Classify(esErr)
}
