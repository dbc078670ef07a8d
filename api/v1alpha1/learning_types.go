package v1alpha1

// PopularityField is the customRanking field that ranks by the popularity the operator
// computes from the index's events (setting eventRanking); no record holds it.
const PopularityField FieldPath = "_popularity"

// Defaults of the learning settings, as the CRD states them.
const (
	DefaultHalfLifeDays = 14
	DefaultMinSearches  = 20
	DefaultStrength     = 50
)

// EventRanking makes the popularity of each product, computed by the operator from the
// index's events and past orders and decayed by age, a custom ranking field
// (PopularityField in customRanking).
type EventRanking struct {
	// Enabled computes the popularity (default false).
	// +optional
	// +kubebuilder:default=false
	Enabled bool `json:"enabled,omitempty"`

	// Weights weigh each event type: what one event counts for (a past order counts as
	// a purchase). Absent: view 1, click 2, addToCart 5, purchase 10.
	// +optional
	Weights *EventWeights `json:"weights,omitempty"`

	// HalfLifeDays is the age at which an event counts half (default 14).
	// +optional
	// +kubebuilder:default=14
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=365
	HalfLifeDays int32 `json:"halfLifeDays,omitempty"`
}

// ReRanking moves up, within the first page of a query searched often enough, the
// records shoppers click and buy more than their position explains.
type ReRanking struct {
	// Enabled re-ranks the first page (default false).
	// +optional
	// +kubebuilder:default=false
	Enabled bool `json:"enabled,omitempty"`

	// MinSearches is how many searches (in the events' retention) a query needs before
	// its clicks move anything (default 20).
	// +optional
	// +kubebuilder:default=20
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1000000
	MinSearches int32 `json:"minSearches,omitempty"`

	// Strength is how far a record may move, in percent of the first page: at 100 the
	// record shoppers prefer most can move from the bottom of the page to the top
	// (default 50).
	// +optional
	// +kubebuilder:default=50
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	Strength int32 `json:"strength,omitempty"`
}
