package searchquery

import searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"

// RenderingContent is how a page shows a search's answer, in Algolia's shape: for now
// the order of its facets and their values. An answer carries the index's facetOrdering
// setting, or that of the first merchandising rule applied that has one.
type RenderingContent struct {
	FacetOrdering *searchv1alpha1.FacetOrdering `json:"facetOrdering,omitempty"`
}

// DefaultRendering is the rendering content of an index's answers without rules: its
// facetOrdering setting; nil when it has none.
func DefaultRendering(s searchv1alpha1.IndexSettings) *RenderingContent {
	if s.FacetOrdering == nil {
		return nil
	}
	return &RenderingContent{FacetOrdering: s.FacetOrdering}
}
