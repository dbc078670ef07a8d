package apiserver

import (
	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/utils"

	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/merch"
	"github.com/aislehq/aisle/internal/tenancy"
)

// ruleRoutes declares the merchandising rules endpoints: writes with a write key, reads
// with either key. Rules are kept by the search service, which applies them.
func (s *Server) ruleRoutes(idx keyedGroup) {
	idx.add(fiber.MethodGet, "/rules", tenancy.Either, s.needSearch, s.listRules)
	idx.add(fiber.MethodPost, "/rules", writeScope, s.needSearch, s.postRules)
	idx.add(fiber.MethodPut, "/rules", writeScope, s.needSearch, s.putRules)
	idx.add(fiber.MethodGet, "/rules/:ruleId", tenancy.Either, s.needSearch, s.getRule)
	idx.add(fiber.MethodPut, "/rules/:ruleId", writeScope, s.needSearch, s.putRule)
	idx.add(fiber.MethodDelete, "/rules/:ruleId", writeScope, s.needSearch, s.deleteRule)
	idx.add(fiber.MethodPost, "/rules/:ruleId/preview", writeScope, s.needSearch, s.previewRule)
}

// rulesTarget is the index of the request, whose rules it reads or writes.
func rulesTarget(c *fiber.Ctx) merch.Target {
	idx := tenantFrom(c.UserContext()).index
	return merch.Target{Names: esnames.For(idx.Namespace, idx.Name), UID: string(idx.UID), Settings: idx.Spec.Settings,
		By: tenantFrom(c.UserContext()).principal.KeyName}
}

// putRule answers PUT /rules/{ruleId}: adds or replaces the rule, and returns it.
func (s *Server) putRule(c *fiber.Ctx) error {
	id, err := keyParam(c, "ruleId")
	if err != nil {
		return err
	}
	rule, err := merch.DecodeRule(c.Body(), id)
	if err != nil {
		return err
	}
	if err := s.search.Rules().Put(c.UserContext(), rulesTarget(c), []merch.Rule{rule}, false); err != nil {
		return err
	}
	return c.JSON(rule)
}

// getRule answers GET /rules/{ruleId}.
func (s *Server) getRule(c *fiber.Ctx) error {
	id, err := keyParam(c, "ruleId")
	if err != nil {
		return err
	}
	rule, err := s.search.Rules().Get(c.UserContext(), rulesTarget(c).Names, id)
	if err != nil {
		return err
	}
	return c.JSON(rule)
}

// deleteRule answers DELETE /rules/{ruleId}.
func (s *Server) deleteRule(c *fiber.Ctx) error {
	id, err := keyParam(c, "ruleId")
	if err != nil {
		return err
	}
	if err := s.search.Rules().Delete(c.UserContext(), rulesTarget(c), id); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"objectID": id})
}

// listRules answers GET /rules?query=&offset=&limit=.
func (s *Server) listRules(c *fiber.Ctx) error {
	q, err := merch.ParseList(utils.CopyString(c.Query("query")), c.Query("offset"), c.Query("limit"))
	if err != nil {
		return err
	}
	page, err := s.search.Rules().List(c.UserContext(), rulesTarget(c).Names, q)
	if err != nil {
		return err
	}
	return c.JSON(page)
}

// postRules answers POST /rules: adds or replaces up to 1,000 rules.
func (s *Server) postRules(c *fiber.Ctx) error {
	rules, err := merch.DecodeRules(c.Body(), merch.MaxBatch)
	if err != nil {
		return err
	}
	if err := s.search.Rules().Put(c.UserContext(), rulesTarget(c), rules, true); err != nil {
		return err
	}
	return c.JSON(savedRules(rules))
}

// putRules answers PUT /rules: replaces every rule of the index at once.
func (s *Server) putRules(c *fiber.Ctx) error {
	rules, err := merch.DecodeRules(c.Body(), merch.MaxRules)
	if err != nil {
		return err
	}
	if err := s.search.Rules().Replace(c.UserContext(), rulesTarget(c), rules); err != nil {
		return err
	}
	return c.JSON(savedRules(rules))
}

// savedRules is the answer of a batch write: the objectIDs written, in order.
func savedRules(rules []merch.Rule) fiber.Map {
	ids := make([]string, len(rules))
	for i, r := range rules {
		ids[i] = r.ObjectID
	}
	return fiber.Map{"objectIDs": ids}
}
