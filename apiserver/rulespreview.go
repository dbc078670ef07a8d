package apiserver

import (
	"bytes"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/gofiber/fiber/v2"

	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/merch"
	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/internal/strictjson"
)

// previewBody is the body of POST /rules/{ruleId}/preview: a search request, and the
// draft of the rule as PUT /rules/{ruleId} takes it (absent: the saved rule).
type previewBody struct {
	searchquery.Request `json:",inline"`
	Rule                jsontext.Value `json:"rule"`
}

// decodePreview reads a preview's body: the search, and the draft rule, decoded from its
// own bytes so that a broken one is refused in the words PUT /rules/{ruleId} uses.
func decodePreview(body []byte, id string) (searchquery.Request, *merch.Rule, error) {
	var b previewBody
	if err := strictjson.Decode(body, &b); err != nil {
		return searchquery.Request{}, nil, err
	}
	if len(b.Rule) == 0 || bytes.Equal(b.Rule, []byte("null")) {
		return b.Request, nil, nil
	}
	rule, err := merch.DecodeRule(b.Rule, id)
	if err != nil {
		return searchquery.Request{}, nil, err
	}
	return b.Request, &rule, nil
}

// previewRule answers POST /rules/{ruleId}/preview: the page of the search with the
// rule (the draft, or the saved one) and without it. Nothing is written, and the two
// searches are neither counted against the plan nor logged: they are a merchandiser's,
// not a shopper's.
func (s *Server) previewRule(c *fiber.Ctx) error {
	id, err := keyParam(c, "ruleId")
	if err != nil {
		return err
	}
	req, draft, err := decodePreview(c.Body(), id)
	if err != nil {
		return err
	}
	ctx, t := c.UserContext(), tenantFrom(c.UserContext())
	with, without, err := s.search.Rules().Previews(ctx, rulesTarget(c), id, draft)
	if err != nil {
		return err
	}
	req, fallback := s.embedQuery(ctx, t.index, req)
	p, err := s.search.Preview(ctx, esnames.For(t.index.Namespace, t.index.Name).Alias(), searchAccess(t), req, with, without)
	if err != nil {
		return err
	}
	p.With.SemanticFallback, p.Without.SemanticFallback = fallback, fallback
	return c.JSON(p)
}
