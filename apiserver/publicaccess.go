package apiserver

import (
	"errors"
	"strings"

	"github.com/gofiber/fiber/v2"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/searchquery"
)

// policyBody is the wire form of a public search policy, with defaults filled in.
type policyBody struct {
	MaxHits           int32                            `json:"maxHits"`
	RetrievableFields []searchv1alpha1.FieldPath       `json:"retrievableFields"`
	ForcedFilters     []searchv1alpha1.FilterCondition `json:"forcedFilters"`
	AllowedFacets     []searchv1alpha1.FieldPath       `json:"allowedFacets"`
	AllowedFilters    []searchv1alpha1.FieldPath       `json:"allowedFilters"`
	AllowedSorts      []searchv1alpha1.FieldPath       `json:"allowedSorts"`
}

type publicAccessResponse struct {
	PublicID       string                  `json:"publicId"`
	AllowedOrigins []searchv1alpha1.Origin `json:"allowedOrigins"`
	Policy         policyBody              `json:"policy"`
}

// DefaultPublicMaxHits is the hit cap of public search when no policy says otherwise.
const DefaultPublicMaxHits = searchquery.DefaultPublicMaxHits

// EffectivePolicy is the policy public search obeys: the index's, or the defaults.
func EffectivePolicy(idx *searchv1alpha1.SearchIndex) policyBody {
	var p searchv1alpha1.PublicSearchPolicy
	if idx.Spec.PublicAccess != nil && idx.Spec.PublicAccess.Policy != nil {
		p = *idx.Spec.PublicAccess.Policy
	}
	if p.MaxHits == 0 {
		p.MaxHits = DefaultPublicMaxHits
	}
	return policyBody{
		MaxHits:           p.MaxHits,
		RetrievableFields: orEmpty(p.RetrievableFields),
		ForcedFilters:     orEmpty(p.ForcedFilters),
		AllowedFacets:     orEmpty(p.AllowedFacets),
		AllowedFilters:    orEmpty(p.AllowedFilters),
		AllowedSorts:      orEmpty(p.AllowedSorts),
	}
}

// getPublicAccess answers GET /public-access.
func (s *Server) getPublicAccess(c *fiber.Ctx) error {
	idx := tenantFrom(c.UserContext()).index
	return c.JSON(publicAccessResponse{
		PublicID:       idx.Status.PublicID,
		AllowedOrigins: orEmpty(idx.Spec.AllowedOrigins),
		Policy:         EffectivePolicy(idx),
	})
}

// policyRequest is the body of PUT /public-access/policy.
type policyRequest struct {
	Policy *searchv1alpha1.PublicSearchPolicy `json:"policy"`
}

var policyKeys = []string{"maxHits", "retrievableFields", "forcedFilters", "allowedFacets", "allowedFilters", "allowedSorts"}

// putPolicy answers PUT /public-access/policy: replace the public search policy.
func (s *Server) putPolicy(c *fiber.Ctx) error {
	var body policyRequest
	if err := decodeStrict(c.Body(), &body); err != nil {
		return err
	}
	if body.Policy == nil {
		return errorf(fiber.StatusBadRequest, "policy is required: send {\"policy\": {...}}")
	}
	if err := s.checkForcedFilters(c, *body.Policy); err != nil {
		return err
	}
	patch, err := fullObjectPatch(body.Policy, policyKeys, "spec", "publicAccess", "policy")
	if err != nil {
		return err
	}
	return s.writePolicy(c, patch)
}

// checkForcedFilters refuses forced filters that public search could not apply to the
// index's fields as they are mapped now.
func (s *Server) checkForcedFilters(c *fiber.Ctx, p searchv1alpha1.PublicSearchPolicy) error {
	if s.search == nil || len(p.ForcedFilters) == 0 {
		return nil
	}
	idx := tenantFrom(c.UserContext()).index
	schema, err := s.search.Schema(c.UserContext(), esnames.For(idx.Namespace, idx.Name).Alias())
	if err != nil {
		return err
	}
	if err := searchquery.CheckPolicy(p, schema); err != nil {
		return errorf(fiber.StatusBadRequest, strings.Replace(err.Error(), searchquery.ErrInvalid.Error(), "invalid policy", 1))
	}
	return nil
}

// deletePolicy answers DELETE /public-access/policy: back to the defaults.
func (s *Server) deletePolicy(c *fiber.Ctx) error {
	return s.writePolicy(c, []byte(`{"spec":{"publicAccess":{"policy":null}}}`))
}

func (s *Server) writePolicy(c *fiber.Ctx, patch []byte) error {
	updated, err := s.patchIndex(c, tenantFrom(c.UserContext()).index, patch, false)
	if err := invalidSettings(nil, err); err != nil {
		var e *Error
		if errors.As(err, &e) && e.Status == fiber.StatusBadRequest {
			e.Message = strings.Replace(e.Message, "invalid settings: ", "invalid policy: ", 1)
		}
		return err
	}
	return c.JSON(publicAccessResponse{
		PublicID:       updated.Status.PublicID,
		AllowedOrigins: orEmpty(updated.Spec.AllowedOrigins),
		Policy:         EffectivePolicy(updated),
	})
}
