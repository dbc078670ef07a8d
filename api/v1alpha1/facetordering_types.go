package v1alpha1

// FacetOrdering says in which order a page shows its facets and their values, in
// Algolia's shape (renderingContent.facetOrdering): search answers carry it as
// renderingContent, and pages (InstantSearch's DynamicWidgets) follow it. It applies at
// query time; a merchandising rule's renderingContent replaces it for its searches.
type FacetOrdering struct {
	// Facets orders the facets.
	// +optional
	Facets *FacetsOrder `json:"facets,omitempty"`

	// Values orders the values of facets, by facet field.
	// +optional
	// +kubebuilder:validation:MaxProperties=100
	Values map[string]FacetValuesOrder `json:"values,omitempty"`
}

// FacetsOrder lists the facets a page shows, in order.
type FacetsOrder struct {
	// Order lists facet fields in the order shown; "*" stands for the others (in their
	// own order), which are otherwise not shown.
	// +optional
	// +kubebuilder:validation:MaxItems=100
	// +kubebuilder:validation:items:MaxLength=256
	Order []string `json:"order,omitempty"`
}

// FacetValuesOrder orders the values of one facet.
type FacetValuesOrder struct {
	// Order lists values shown first, in this order (pinned).
	// +optional
	// +kubebuilder:validation:MaxItems=100
	// +kubebuilder:validation:items:MaxLength=256
	Order []string `json:"order,omitempty"`

	// SortRemainingBy orders the values Order does not list: by count (the default),
	// alphabetically (alpha), or not at all (hidden: only Order's values are shown).
	// +optional
	// +kubebuilder:validation:Enum=count;alpha;hidden
	SortRemainingBy string `json:"sortRemainingBy,omitempty"`

	// Hide lists values never shown.
	// +optional
	// +kubebuilder:validation:MaxItems=100
	// +kubebuilder:validation:items:MaxLength=256
	Hide []string `json:"hide,omitempty"`
}
