package apiserver

import (
	"github.com/gofiber/fiber/v2"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
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
const DefaultPublicMaxHits = 20

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
