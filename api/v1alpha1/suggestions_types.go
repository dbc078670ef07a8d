package v1alpha1

// Defaults and bounds of SuggestionsSetting, as the CRD states them.
const (
	DefaultSuggestionMinDays = 3
	MaxSuggestionMinDays     = 90
)

// SuggestionsSetting tunes query suggestions (GET /suggestions): popular past searches
// that found something, matching what a shopper types.
type SuggestionsSetting struct {
	// MinDays: a query is suggested only once it was searched on at least this many
	// distinct days, so that a rare search (a name, an order number) never shows to
	// other shoppers.
	// +optional
	// +kubebuilder:default=3
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=90
	MinDays *int32 `json:"minDays,omitempty"`

	// Exclude lists words never to suggest: a past search holding one of them (case
	// and accents aside) is never suggested.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=1000
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=100
	Exclude []string `json:"exclude,omitempty"`
}
