package v1alpha1

// Language selects the text analysis of searchable fields.
// +kubebuilder:validation:Enum=en;generic
type Language string

const (
	// LanguageEnglish lowercases, folds accents, drops English stop words and stems.
	LanguageEnglish Language = "en"
	// LanguageGeneric lowercases and folds accents only; right for mixed-language catalogs.
	LanguageGeneric Language = "generic"
)

// SortOrder is the direction of a sort or ranking rule.
// +kubebuilder:validation:Enum=asc;desc
type SortOrder string

const (
	SortAscending  SortOrder = "asc"
	SortDescending SortOrder = "desc"
)

// SearchableField is a field that full-text queries match, with its weight.
type SearchableField struct {
	// Path is the dotted path of the field.
	// +required
	Path FieldPath `json:"path"`

	// Weight multiplies the relevance of matches in this field: a title with weight 3
	// counts three times as much as a description with weight 1.
	// +optional
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	Weight int32 `json:"weight,omitempty"`
}

// RankingRule orders hits of equal text relevance by a field, for example popularity.
type RankingRule struct {
	// Field is the dotted path of a numeric or date field.
	// +required
	Field FieldPath `json:"field"`

	// Order is desc (larger values first) or asc.
	// +optional
	// +kubebuilder:default=desc
	Order SortOrder `json:"order,omitempty"`
}

// SynonymGroup is a set of words that a query treats as one another.
type SynonymGroup struct {
	// Terms are words or short phrases that are equivalent, for example ["tv", "television"].
	// +required
	// +listType=set
	// +kubebuilder:validation:MinItems=2
	// +kubebuilder:validation:MaxItems=20
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=100
	// +kubebuilder:validation:items:XValidation:rule="!self.contains(',') && !self.contains('=>')",message="a synonym term may not contain ',' or '=>'"
	Terms []string `json:"terms"`
}

// IndexSettings decide how records are analysed, matched, filtered, faceted and ranked.
// Changing searchable fields, language, synonyms or field types needs a rebuild; the
// operator runs it in the background.
type IndexSettings struct {
	// SearchableFields are matched by the query text, each with a weight.
	// Empty means every text field with weight 1.
	// +optional
	// +listType=map
	// +listMapKey=path
	// +kubebuilder:validation:MaxItems=64
	SearchableFields []SearchableField `json:"searchableFields,omitempty"`

	// FilterableFields may be used in search filters.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=100
	FilterableFields []FieldPath `json:"filterableFields,omitempty"`

	// FacetFields may be requested as facets with value counts.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=50
	FacetFields []FieldPath `json:"facetFields,omitempty"`

	// SortableFields may be used to sort hits.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=50
	SortableFields []FieldPath `json:"sortableFields,omitempty"`

	// CustomRanking breaks ties between hits of equal relevance, in order.
	// +optional
	// +listType=map
	// +listMapKey=field
	// +kubebuilder:validation:MaxItems=10
	CustomRanking []RankingRule `json:"customRanking,omitempty"`

	// Synonyms are groups of equivalent terms applied at query time.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=1000
	Synonyms []SynonymGroup `json:"synonyms,omitempty"`

	// Language selects the text analysis.
	// +optional
	// +kubebuilder:default=en
	Language Language `json:"language,omitempty"`

	// CountBrowserOrders makes purchases sent from browsers count for Bought together
	// (at most 3 orders per visitor a day). Orders sent by servers always count.
	// +optional
	// +kubebuilder:default=false
	CountBrowserOrders bool `json:"countBrowserOrders,omitempty"`

	// Recommendations tune the recommendation lists (similar, goes with, trending). They
	// apply at query time. Absent: every default.
	// +optional
	Recommendations *RecommendationSettings `json:"recommendations,omitempty"`
}

// Defaults of RecommendationSettings, as the CRD states them.
const (
	DefaultMinSharedOrders = 2
	DefaultViewWeight      = 1
	DefaultClickWeight     = 2
	DefaultAddToCartWeight = 5
	DefaultPurchaseWeight  = 10
)

// RecommendationSettings tune the recommendation lists.
type RecommendationSettings struct {
	// SimilarWithin is a facet field whose value similar products share with the given
	// product and goes-with products do not (for example categories: a phone's similar
	// products are phones, and what goes with it is not). Empty: no such field.
	// +optional
	SimilarWithin FieldPath `json:"similarWithin,omitempty"`

	// MinSharedOrders is how many orders a product must share with the given one to be
	// listed as going with it.
	// +optional
	// +kubebuilder:default=2
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1000
	MinSharedOrders *int32 `json:"minSharedOrders,omitempty"`

	// EventWeights weigh each event type in trending.
	// +optional
	// +kubebuilder:default={}
	EventWeights *EventWeights `json:"eventWeights,omitempty"`
}

// EventWeights weigh shopper events by type: what one event counts for in trending.
type EventWeights struct {
	// +optional
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1000
	View *int32 `json:"view,omitempty"`

	// +optional
	// +kubebuilder:default=2
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1000
	Click *int32 `json:"click,omitempty"`

	// +optional
	// +kubebuilder:default=5
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1000
	AddToCart *int32 `json:"addToCart,omitempty"`

	// +optional
	// +kubebuilder:default=10
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1000
	Purchase *int32 `json:"purchase,omitempty"`
}
