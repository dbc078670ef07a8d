package settingsstore

import (
	"context"
	"fmt"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/searchquery"
)

var policyKeys = []string{"maxHits", "retrievableFields", "forcedFilters", "allowedFacets", "allowedFilters", "allowedSorts"}

// PutPolicy replaces the public search policy of idx with p, or refuses it with
// ErrInvalidPolicy naming every broken rule (a field allowed that the settings do not
// list among them); it returns the index as stored.
func (s *Store) PutPolicy(ctx context.Context, idx client.ObjectKey, p searchv1alpha1.PublicSearchPolicy) (*searchv1alpha1.SearchIndex, error) {
	if err := s.checkForcedFilters(ctx, idx, p); err != nil {
		return nil, err
	}
	current, err := s.get(ctx, idx)
	if err != nil {
		return nil, err
	}
	if err := refusal(ErrInvalidPolicy, policyFieldProblems(current.Spec.Settings, p), nil); err != nil {
		return nil, err
	}
	patch, err := fullObjectPatch(p, policyKeys, "spec", "publicAccess", "policy")
	if err != nil {
		return nil, err
	}
	return s.writePolicy(ctx, idx, patch)
}

// DeletePolicy removes the public search policy of idx (public search falls back to the
// defaults); it returns the index as stored.
func (s *Store) DeletePolicy(ctx context.Context, idx client.ObjectKey) (*searchv1alpha1.SearchIndex, error) {
	return s.writePolicy(ctx, idx, []byte(`{"spec":{"publicAccess":{"policy":null}}}`))
}

func (s *Store) writePolicy(ctx context.Context, idx client.ObjectKey, patch []byte) (*searchv1alpha1.SearchIndex, error) {
	updated, err := s.patch(ctx, idx, patch, false)
	if err := refusal(ErrInvalidPolicy, nil, err); err != nil {
		return nil, err
	}
	return updated, nil
}

// checkForcedFilters refuses forced filters that public search could not apply to the
// index's fields as they are mapped now.
func (s *Store) checkForcedFilters(ctx context.Context, idx client.ObjectKey, p searchv1alpha1.PublicSearchPolicy) error {
	if s.schemas == nil || len(p.ForcedFilters) == 0 {
		return nil
	}
	schema, err := s.schemas.Schema(ctx, esnames.For(idx.Namespace, idx.Name).Alias())
	if err != nil {
		return err
	}
	if err := searchquery.CheckPolicy(p, schema); err != nil {
		return fmt.Errorf("%w: %s", ErrInvalidPolicy, strings.TrimPrefix(err.Error(), searchquery.ErrInvalid.Error()+": "))
	}
	return nil
}
