package v1alpha1

// Language selects the text analysis of searchable fields: Elasticsearch's analyzer of
// that language (stemming, stop words, elision) with accents folded, or generic.
// +kubebuilder:validation:Enum=en;de;fr;es;it;nl;pt;sv;da;no;fi;pl;tr;generic
type Language string

const (
	// LanguageEnglish lowercases, folds accents, drops English stop words and stems.
	LanguageEnglish Language = "en"
	// LanguageGeneric lowercases and folds accents only; right for mixed-language catalogs.
	LanguageGeneric    Language = "generic"
	LanguageGerman     Language = "de"
	LanguageFrench     Language = "fr"
	LanguageSpanish    Language = "es"
	LanguageItalian    Language = "it"
	LanguageDutch      Language = "nl"
	LanguagePortuguese Language = "pt"
	LanguageSwedish    Language = "sv"
	LanguageDanish     Language = "da"
	LanguageNorwegian  Language = "no"
	LanguageFinnish    Language = "fi"
	// LanguagePolish has stop words but no stemmer: Elasticsearch has no Polish analyzer
	// without a plugin.
	LanguagePolish  Language = "pl"
	LanguageTurkish Language = "tr"
)

// RankingCriterion is one criterion of the ranking.
// +kubebuilder:validation:Enum=sort;words;typo;proximity;attribute;exact;custom
type RankingCriterion string

const (
	// RankSort orders by the search request's sort keys.
	RankSort RankingCriterion = "sort"
	// RankWords puts records matching more query words first.
	RankWords RankingCriterion = "words"
	// RankTypo puts records matching with fewer typos first.
	RankTypo RankingCriterion = "typo"
	// RankProximity puts records whose matched words are closer together first.
	RankProximity RankingCriterion = "proximity"
	// RankAttribute puts matches in higher-weighted searchable fields first.
	RankAttribute RankingCriterion = "attribute"
	// RankExact puts whole-word matches before prefix and typo matches.
	RankExact RankingCriterion = "exact"
	// RankCustom orders by the customRanking fields.
	RankCustom RankingCriterion = "custom"
)

// SynonymType says how a synonym entry applies.
// +kubebuilder:validation:Enum=multiWay;oneWay;altCorrection
type SynonymType string

const (
	// SynonymMultiWay: every term finds records holding any of the others.
	SynonymMultiWay SynonymType = "multiWay"
	// SynonymOneWay: the input finds records holding the synonyms, not the reverse.
	SynonymOneWay SynonymType = "oneWay"
	// SynonymAltCorrection: the word finds records holding the corrections, ranked as
	// that many typos.
	SynonymAltCorrection SynonymType = "altCorrection"
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

// SynonymGroup is one synonym entry, applied at query time: multiWay (terms), oneWay
// (input and synonyms) or altCorrection (word, corrections and typos). A term may be
// several words ("television set").
// +kubebuilder:validation:XValidation:rule="(has(self.type) && self.type != 'multiWay') || (has(self.terms) && !has(self.input) && !has(self.synonyms) && !has(self.word) && !has(self.corrections) && !has(self.typos))",message="a multiWay synonym has terms (2 to 20) and nothing else"
// +kubebuilder:validation:XValidation:rule="!has(self.type) || self.type != 'oneWay' || (has(self.input) && has(self.synonyms) && !has(self.terms) && !has(self.word) && !has(self.corrections) && !has(self.typos))",message="a oneWay synonym has input and synonyms, and nothing else"
// +kubebuilder:validation:XValidation:rule="!has(self.type) || self.type != 'altCorrection' || (has(self.word) && has(self.corrections) && !has(self.terms) && !has(self.input) && !has(self.synonyms))",message="an altCorrection has word, corrections and typos, and nothing else"
type SynonymGroup struct {
	// Type is multiWay (the default), oneWay or altCorrection.
	// +optional
	Type SynonymType `json:"type,omitempty"`

	// Terms (multiWay) are words or phrases that find one another, for example
	// ["tv", "television set"].
	// +optional
	// +listType=set
	// +kubebuilder:validation:MinItems=2
	// +kubebuilder:validation:MaxItems=20
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=100
	// +kubebuilder:validation:items:XValidation:rule="!self.contains(',') && !self.contains('=>')",message="a synonym term may not contain ',' or '=>'"
	Terms []string `json:"terms,omitempty"`

	// Input (oneWay) is the word or phrase that also finds the synonyms.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=100
	// +kubebuilder:validation:XValidation:rule="!self.contains(',') && !self.contains('=>')",message="a synonym term may not contain ',' or '=>'"
	Input string `json:"input,omitempty"`

	// Synonyms (oneWay) are what a search for the input also finds.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=20
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=100
	// +kubebuilder:validation:items:XValidation:rule="!self.contains(',') && !self.contains('=>')",message="a synonym term may not contain ',' or '=>'"
	Synonyms []string `json:"synonyms,omitempty"`

	// Word (altCorrection) is a query word, typically a common misspelling.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=100
	// +kubebuilder:validation:XValidation:rule="!self.contains(',') && !self.contains('=>')",message="a synonym term may not contain ',' or '=>'"
	Word string `json:"word,omitempty"`

	// Corrections (altCorrection) are what a search for the word also finds, ranked as
	// matches with Typos typos.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=20
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=100
	// +kubebuilder:validation:items:XValidation:rule="!self.contains(',') && !self.contains('=>')",message="a synonym term may not contain ',' or '=>'"
	Corrections []string `json:"corrections,omitempty"`

	// Typos (altCorrection) is how many typos a correction counts as: 1 (the default) or 2.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=2
	Typos int32 `json:"typos,omitempty"`
}

// TypoTolerance decides which query words may match with typos. A transposition of two
// letters counts as one typo; a typo in the first letter counts as two.
// +kubebuilder:validation:XValidation:rule="!has(self.minWordSizeFor1Typo) || !has(self.minWordSizeFor2Typos) || self.minWordSizeFor2Typos >= self.minWordSizeFor1Typo",message="minWordSizeFor2Typos must be at least minWordSizeFor1Typo"
type TypoTolerance struct {
	// Enabled allows typos at all (default true); a search can also turn them off.
	// +optional
	// +kubebuilder:default=true
	Enabled *bool `json:"enabled,omitempty"`

	// MinWordSizeFor1Typo: shorter words match only exactly (default 4).
	// +optional
	// +kubebuilder:default=4
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	MinWordSizeFor1Typo int32 `json:"minWordSizeFor1Typo,omitempty"`

	// MinWordSizeFor2Typos: shorter words match with one typo at most (default 8).
	// +optional
	// +kubebuilder:default=8
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	MinWordSizeFor2Typos int32 `json:"minWordSizeFor2Typos,omitempty"`

	// OnNumbers lets words made only of digits (model numbers, sizes) match with typos.
	// +optional
	OnNumbers bool `json:"onNumbers,omitempty"`

	// DisableOnFields are searchable fields matched without typos and prefixes.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=64
	DisableOnFields []FieldPath `json:"disableOnFields,omitempty"`

	// DisableOnWords are query words that match only exactly.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=1000
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=100
	DisableOnWords []string `json:"disableOnWords,omitempty"`
}

// StopWords are words a query drops (unless it holds nothing else): the language's list,
// with Words added, or Words alone with Replace.
type StopWords struct {
	// Enabled drops stop words from queries (default true).
	// +optional
	// +kubebuilder:default=true
	Enabled *bool `json:"enabled,omitempty"`

	// Words are stop words added to the language's list.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=1000
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=100
	Words []string `json:"words,omitempty"`

	// Replace makes Words the whole list instead of adding them to the language's.
	// +optional
	Replace bool `json:"replace,omitempty"`
}

// IndexSettings decide how records are analysed, matched, filtered, faceted and ranked.
// Changing the searchable fields or the language needs a rebuild; the operator runs it
// in the background. Everything else applies with the next search.
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

	// Ranking is the order of the ranking criteria: each decides only among hits tied on
	// every one before it. Empty means sort, words, typo, exact, custom; a criterion left
	// out is not applied. Without custom ranking after the score, BM25 breaks the ties.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=7
	Ranking []RankingCriterion `json:"ranking,omitempty"`

	// CustomRanking orders hits the text matches equally well (the ranking's custom
	// criterion), in order.
	// +optional
	// +listType=map
	// +listMapKey=field
	// +kubebuilder:validation:MaxItems=10
	CustomRanking []RankingRule `json:"customRanking,omitempty"`

	// Synonyms are applied at query time: a change takes effect with the next search.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=1000
	Synonyms []SynonymGroup `json:"synonyms,omitempty"`

	// TypoTolerance decides which query words may match with typos.
	// +optional
	TypoTolerance *TypoTolerance `json:"typoTolerance,omitempty"`

	// StopWords are the words queries drop.
	// +optional
	StopWords *StopWords `json:"stopWords,omitempty"`

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

	// Distinct groups records by a field's value (the variants of a product, for example
	// groupId): a search returns at most Limit hits per group, the best-ranked ones.
	// It applies at query time; a search may change the limit or turn it off. Absent: no
	// grouping.
	// +optional
	Distinct *DistinctSetting `json:"distinct,omitempty"`

	// EventRanking computes each product's popularity from the index's events, for
	// customRanking's _popularity. Absent: off.
	// +optional
	EventRanking *EventRanking `json:"eventRanking,omitempty"`

	// ReRanking reorders the first page of frequent queries by what shoppers click and
	// buy. Absent: off.
	// +optional
	ReRanking *ReRanking `json:"reRanking,omitempty"`
	// Suggestions tune query suggestions. Absent: every default.
	// +optional
	Suggestions *SuggestionsSetting `json:"suggestions,omitempty"`

	// Embedders name the vectors records and searches may carry (_vectors.<name>), for
	// search by meaning (a request's hybrid). Absent: words only.
	// +optional
	// +kubebuilder:validation:MaxProperties=4
	Embedders map[string]Embedder `json:"embedders,omitempty"`

	// FacetOrdering is the order in which pages show facets and their values, returned
	// with each search answer as renderingContent. Absent: none is returned.
	// +optional
	FacetOrdering *FacetOrdering `json:"facetOrdering,omitempty"`
}

// MaxDistinctLimit bounds the hits per group of distinct.
const MaxDistinctLimit = 10

// DistinctSetting groups records by the value of Field.
type DistinctSetting struct {
	// Field is a filterable or facet field holding one value per record (records
	// without it are each a group of their own).
	// +required
	Field FieldPath `json:"field"`

	// Limit is the number of hits per group (default 1).
	// +optional
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=10
	Limit int32 `json:"limit,omitempty"`
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
