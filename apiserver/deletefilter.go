package apiserver

import (
	"context"
	"errors"

	"github.com/gofiber/fiber/v2"

	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/internal/strictjson"
)

// errDeleteScope: a delete by filter names what it deletes, a filter or every record.
var errDeleteScope = errors.New(`send {"filters": ...} to delete the records a filter matches, or {"all": true} (and no filters) to delete every record`)

// deleteBody is the body of POST /records/delete.
type deleteBody struct {
	Filters *searchquery.Filter `json:"filters"`
	All     bool                `json:"all"`
}

// postDelete answers POST /records/delete: delete the records a filter matches, as a
// write with a receipt. The filter is a search's (its fields filterable), validated as
// a search validates it.
func (s *Server) postDelete(c *fiber.Ctx) error {
	var body deleteBody
	if err := strictjson.Decode(c.Body(), &body); err != nil {
		return err
	}
	if (body.Filters == nil) != body.All {
		return errDeleteScope
	}
	t, err := s.target(c)
	if err != nil {
		return err
	}
	filters, err := s.recordFilters(c.UserContext(), t, body.Filters)
	if err != nil {
		return err
	}
	r, err := s.catalog.DeleteMatching(c.UserContext(), t, filters)
	if err != nil {
		return err
	}
	return accepted(c, r)
}

// recordFilters validates an endpoint's filter of records as a search validates it (its
// fields filterable, its values fitting the mapping) and gives its clauses: none for nil.
func (s *Server) recordFilters(ctx context.Context, t catalog.Target, f *searchquery.Filter) ([]any, error) {
	if f == nil {
		return nil, nil
	}
	schema, err := s.search.Schema(ctx, t.Names.Alias())
	if err != nil {
		return nil, err
	}
	return searchquery.Filters(f, searchquery.KeyedAccess(t.Settings), schema)
}
