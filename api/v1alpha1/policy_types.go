package v1alpha1

// RangeBounds bound a numeric or date field. Values are decimal numbers or RFC 3339 dates.
// +kubebuilder:validation:XValidation:rule="has(self.gt) || has(self.gte) || has(self.lt) || has(self.lte)",message="a range needs at least one of gt, gte, lt, lte"
// +kubebuilder:validation:XValidation:rule="!(has(self.gt) && has(self.gte)) && !(has(self.lt) && has(self.lte))",message="a range takes at most one lower bound (gt or gte) and one upper bound (lt or lte)"
type RangeBounds struct {
	// +optional
	// +kubebuilder:validation:MaxLength=64
	GT *string `json:"gt,omitempty"`
	// +optional
	// +kubebuilder:validation:MaxLength=64
	GTE *string `json:"gte,omitempty"`
	// +optional
	// +kubebuilder:validation:MaxLength=64
	LT *string `json:"lt,omitempty"`
	// +optional
	// +kubebuilder:validation:MaxLength=64
	LTE *string `json:"lte,omitempty"`
}

// FilterCondition keeps only records whose field equals one of the values, or lies in the range.
// +kubebuilder:validation:XValidation:rule="has(self.values) != has(self.range)",message="a filter condition has exactly one of values or range"
type FilterCondition struct {
	// Field is the dotted path of the filtered field.
	// +required
	Field FieldPath `json:"field"`

	// Values: the field must equal one of them.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=100
	// +kubebuilder:validation:items:MaxLength=256
	Values []string `json:"values,omitempty"`

	// Range: the field must lie within the bounds.
	// +optional
	Range *RangeBounds `json:"range,omitempty"`
}

// PublicSearchPolicy limits what browsers may ask of the public search endpoint.
type PublicSearchPolicy struct {
	// MaxHits caps the hits returned by one public search request.
	// +optional
	// +kubebuilder:default=20
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=50
	MaxHits int32 `json:"maxHits,omitempty"`

	// RetrievableFields are the record fields returned to browsers. Empty means all fields.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=100
	RetrievableFields []FieldPath `json:"retrievableFields,omitempty"`

	// ForcedFilters are added to every public search, whatever the browser sends.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=20
	ForcedFilters []FilterCondition `json:"forcedFilters,omitempty"`

	// AllowedFacets may be requested by browsers. Empty means none.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=50
	AllowedFacets []FieldPath `json:"allowedFacets,omitempty"`

	// AllowedFilters may be used in browser filters. Empty means none.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=100
	AllowedFilters []FieldPath `json:"allowedFilters,omitempty"`

	// AllowedSorts may be used to sort browser searches. Empty means relevance only.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=50
	AllowedSorts []FieldPath `json:"allowedSorts,omitempty"`
}

// PublicAccess configures the browser endpoints of an index.
type PublicAccess struct {
	// Policy limits public search. Absent: defaults apply (20 hits, all fields, no facets,
	// filters or sorts).
	// +optional
	Policy *PublicSearchPolicy `json:"policy,omitempty"`
}
