package searchlog

import (
	"fmt"
	"unicode/utf8"

	"github.com/aislehq/aisle/internal/events"
	"github.com/aislehq/aisle/internal/searchquery"
)

// Request is a query suggestions request: GET /suggestions?q=&limit=&categories=.
type Request struct {
	// Q is what the shopper typed so far; empty suggests the most searched queries.
	Q string
	// Limit is how many suggestions at most (1 to MaxSuggestions, default
	// DefaultSuggestions).
	Limit int
	// Categories adds each suggestion's top category values.
	Categories bool
}

// ParseRequest reads the parameters of a suggestions request: q at most
// searchquery.MaxQueryLength bytes of UTF-8, limit an integer from 1 to MaxSuggestions,
// categories true or false. A bad one is events.ErrBadParameter, naming it.
func ParseRequest(q, limit, categories string) (Request, error) {
	if len(q) > searchquery.MaxQueryLength || !utf8.ValidString(q) {
		return Request{}, fmt.Errorf("%w: q must be UTF-8 text of at most %d bytes", events.ErrBadParameter, searchquery.MaxQueryLength)
	}
	n, err := events.ParseLimit(limit, DefaultSuggestions, MaxSuggestions)
	if err != nil {
		return Request{}, err
	}
	r := Request{Q: q, Limit: n}
	switch categories {
	case "", "false":
	case "true":
		r.Categories = true
	default:
		return Request{}, fmt.Errorf("%w: categories must be true or false", events.ErrBadParameter)
	}
	return r, nil
}
