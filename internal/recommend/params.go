package recommend

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/aislehq/aisle/internal/events"
	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/internal/strictjson"
)

// ErrBadParameter is the reading endpoints' refusal of a query parameter (400), shared
// with the Events page and Bought together.
var ErrBadParameter = events.ErrBadParameter

// Names of the lists, as the contract's clicks name them.
const (
	Similar  = string(events.Similar)
	GoesWith = string(events.GoesWith)
	Trending = string(events.Trending)
)

// MaxValueLength bounds trending's value parameter, in bytes: a facet value.
const MaxValueLength = 512

// Params are the query parameters of a list request.
type Params struct {
	// Limit is how many products to list: 1 to MaxLimit, DefaultLimit when absent.
	Limit int
	// Filter keeps only the products matching it (the filters of a search request).
	Filter *searchquery.Filter
	// Field and Value restrict trending to the products holding Value in the facet Field.
	Field, Value string
}

// Query is a list request's raw query parameters.
type Query struct {
	Limit, Filters, Field, Value string
}

// ParseList checks a list name of GET /lists/{list}/{objectID}.
func ParseList(name string) error {
	if name == Similar || name == GoesWith {
		return nil
	}
	return fmt.Errorf("%w: list %q is not one of %s, %s, together (and trending, which takes no objectID)",
		ErrBadParameter, name, Similar, GoesWith)
}

// ParseParams reads a list's query parameters; field and value are trending's only.
func ParseParams(q Query, trending bool) (Params, error) {
	limit, err := events.ParseLimit(q.Limit, DefaultLimit, MaxLimit)
	if err != nil {
		return Params{}, err
	}
	p := Params{Limit: limit, Field: q.Field, Value: q.Value}
	if p.Filter, err = parseFilters(q.Filters); err != nil {
		return Params{}, err
	}
	switch {
	case !trending && (q.Field != "" || q.Value != ""):
		return Params{}, fmt.Errorf("%w: field and value are trending's parameters", ErrBadParameter)
	case (q.Field == "") != (q.Value == ""):
		return Params{}, fmt.Errorf("%w: field and value go together: a facet field and one of its values", ErrBadParameter)
	case len(q.Value) > MaxValueLength:
		return Params{}, fmt.Errorf("%w: value must be at most %d bytes", ErrBadParameter, MaxValueLength)
	case !utf8.ValidString(q.Field) || !utf8.ValidString(q.Value):
		return Params{}, fmt.Errorf("%w: field and value must be valid UTF-8", ErrBadParameter)
	}
	return p, nil
}

// parseFilters reads the filters parameter: a filter in the search request's JSON form.
func parseFilters(raw string) (*searchquery.Filter, error) {
	if raw == "" {
		return nil, nil
	}
	var f searchquery.Filter
	if err := strictjson.Decode([]byte(raw), &f); err != nil {
		return nil, fmt.Errorf("%w: filters must be a filter in the search request's JSON form, URL-encoded: %s",
			ErrBadParameter, strings.TrimPrefix(err.Error(), strictjson.ErrInvalid.Error()+": "))
	}
	return &f, nil
}

// badSearchParameter turns a search rule the filters or the facet broke into the list's
// parameter error, naming the place.
func badSearchParameter(err error) error {
	if !errors.Is(err, searchquery.ErrInvalid) {
		return err
	}
	return fmt.Errorf("%w: %s", ErrBadParameter, strings.TrimPrefix(err.Error(), searchquery.ErrInvalid.Error()+": "))
}
