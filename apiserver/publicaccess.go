package apiserver

import (
	"github.com/gofiber/fiber/v2"
	"sigs.k8s.io/controller-runtime/pkg/client"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/internal/strictjson"
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

// getPublicAccess answers GET /public-access, as the Kubernetes API holds the index now
// (a client reads what it just wrote, on any replica).
func (s *Server) getPublicAccess(c *fiber.Ctx) error {
	idx, err := s.settings.Fresh(c.UserContext(), tenantFrom(c.UserContext()).index)
	if err != nil {
		return err
	}
	return c.JSON(publicAccessOf(idx))
}

func publicAccessOf(idx *searchv1alpha1.SearchIndex) publicAccessResponse {
	return publicAccessResponse{
		PublicID:       idx.Status.PublicID,
		AllowedOrigins: orEmpty(idx.Spec.AllowedOrigins),
		Policy:         EffectivePolicy(idx),
	}
}

// policyRequest is the body of PUT /public-access/policy.
type policyRequest struct {
	Policy *searchv1alpha1.PublicSearchPolicy `json:"policy"`
}

// putPolicy answers PUT /public-access/policy: replace the public search policy.
func (s *Server) putPolicy(c *fiber.Ctx) error {
	var body policyRequest
	if err := strictjson.Decode(c.Body(), &body); err != nil {
		return err
	}
	if body.Policy == nil {
		return errPolicyRequired
	}
	idx := tenantFrom(c.UserContext()).index
	updated, err := s.settings.PutPolicy(c.UserContext(), client.ObjectKeyFromObject(idx), *body.Policy)
	if err != nil {
		return err
	}
	return c.JSON(publicAccessOf(updated))
}

// deletePolicy answers DELETE /public-access/policy: back to the defaults.
func (s *Server) deletePolicy(c *fiber.Ctx) error {
	idx := tenantFrom(c.UserContext()).index
	updated, err := s.settings.DeletePolicy(c.UserContext(), client.ObjectKeyFromObject(idx))
	if err != nil {
		return err
	}
	return c.JSON(publicAccessOf(updated))
}
