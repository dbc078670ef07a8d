// Package indexsettings classifies and checks changes to a SearchIndex's settings, for
// PUT /config: which changes apply at once (query time), which need a rebuild of the
// physical index, and which rules a change breaks that the CRD schema cannot state (the
// checks of each setting in its own file: checkrelevance.go for ranking, typos and stop
// words). What a setting means once its defaults apply is internal/relevance's.
package indexsettings

import (
	"reflect"
	"slices"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/indexmapping"
	"github.com/aislehq/aisle/internal/relevance"
)

// Setting names, as the API spells them.
const (
	SearchableFields   = "searchableFields"
	FilterableFields   = "filterableFields"
	FacetFields        = "facetFields"
	SortableFields     = "sortableFields"
	Ranking            = "ranking"
	CustomRanking      = "customRanking"
	Synonyms           = "synonyms"
	TypoTolerance      = "typoTolerance"
	StopWords          = "stopWords"
	Language           = "language"
	CountBrowserOrders = "countBrowserOrders"
	Recommendations    = "recommendations"
	Distinct           = "distinct"
	EventRanking       = "eventRanking"
	ReRanking          = "reRanking"
	Suggestions        = "suggestions"
	FacetOrdering      = "facetOrdering"
	Embedders          = "embedders"
)

// Changes lists the settings that differ between two versions, split by when they
// take effect.
type Changes struct {
	// Applied take effect with the next search: weights, filterable, facet and sortable
	// fields (every field already has an exact-value mapping), the ranking, custom
	// ranking, synonyms, typo tolerance and stop words (the query applies them),
	// counting browser orders, the recommendation settings, distinct (every field
	// has an exact-value mapping to group on), the learning settings (signals live
	// apart from the records) and the suggestion settings.
	Applied []string
	// Rebuilt need a new physical index: the set of searchable fields and the language
	// (their analysis: analysis settings of an open index cannot change), and the
	// embedders (their vector fields).
	Rebuilt []string
}

// Diff classifies the changes from old to new.
func Diff(old, new searchv1alpha1.IndexSettings) Changes {
	c := Changes{Applied: []string{}, Rebuilt: []string{}}
	add := func(name string, changed, rebuild bool) {
		switch {
		case !changed:
		case rebuild:
			c.Rebuilt = append(c.Rebuilt, name)
		default:
			c.Applied = append(c.Applied, name)
		}
	}
	add(SearchableFields, !reflect.DeepEqual(weights(old), weights(new)), !slices.Equal(searchPaths(old), searchPaths(new)))
	add(FilterableFields, !sameSet(old.FilterableFields, new.FilterableFields), false)
	add(FacetFields, !sameSet(old.FacetFields, new.FacetFields), false)
	add(SortableFields, !sameSet(old.SortableFields, new.SortableFields), false)
	add(Ranking, !slices.Equal(relevance.Ranking(old), relevance.Ranking(new)), false)
	add(CustomRanking, !reflect.DeepEqual(ranking(old), ranking(new)), false)
	add(Synonyms, !reflect.DeepEqual(synonyms(old), synonyms(new)), false)
	add(TypoTolerance, !reflect.DeepEqual(typos(old), typos(new)), false)
	add(StopWords, !reflect.DeepEqual(stopWords(old), stopWords(new)), false)
	add(Language, relevance.Language(old) != relevance.Language(new), true)
	add(CountBrowserOrders, old.CountBrowserOrders != new.CountBrowserOrders, false)
	add(Recommendations, !reflect.DeepEqual(relevance.RecommendationsOf(old), relevance.RecommendationsOf(new)), false)
	add(Distinct, !reflect.DeepEqual(distinctOf(old), distinctOf(new)), false)
	add(EventRanking, relevance.PopularityOf(old) != relevance.PopularityOf(new), false)
	add(ReRanking, relevance.ReRankOf(old) != relevance.ReRankOf(new), false)
	add(Suggestions, !reflect.DeepEqual(relevance.SuggestionsOf(old), relevance.SuggestionsOf(new)), false)
	add(FacetOrdering, !reflect.DeepEqual(old.FacetOrdering, new.FacetOrdering), false)
	// Each embedder is a vector field of the physical index; its server's URL and token
	// change no vector.
	add(Embedders, !reflect.DeepEqual(indexmapping.Embedders(old), indexmapping.Embedders(new)),
		!reflect.DeepEqual(indexmapping.DefiningEmbedders(old), indexmapping.DefiningEmbedders(new)))
	return c
}

func weights(s searchv1alpha1.IndexSettings) map[string]int32 {
	m := map[string]int32{}
	for _, f := range s.SearchableFields {
		m[string(f.Path)] = max(f.Weight, 1)
	}
	return m
}

func searchPaths(s searchv1alpha1.IndexSettings) []string {
	out := make([]string, 0, len(s.SearchableFields))
	for _, f := range s.SearchableFields {
		out = append(out, string(f.Path))
	}
	slices.Sort(out)
	return out
}

func sameSet(a, b []searchv1alpha1.FieldPath) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(slices.Compact(x), slices.Compact(y))
}

func ranking(s searchv1alpha1.IndexSettings) []searchv1alpha1.RankingRule {
	out := make([]searchv1alpha1.RankingRule, 0, len(s.CustomRanking))
	for _, r := range s.CustomRanking {
		if r.Order == "" {
			r.Order = searchv1alpha1.SortDescending
		}
		out = append(out, r)
	}
	return out
}

// synonyms are the entries with their defaults spelled out, so that "type: multiWay"
// and no type compare equal.
func synonyms(s searchv1alpha1.IndexSettings) []searchv1alpha1.SynonymGroup {
	out := make([]searchv1alpha1.SynonymGroup, 0, len(s.Synonyms))
	for _, g := range s.Synonyms {
		if g.Type == "" {
			g.Type = searchv1alpha1.SynonymMultiWay
		}
		if g.Type == searchv1alpha1.SynonymAltCorrection && g.Typos == 0 {
			g.Typos = 1
		}
		out = append(out, g)
	}
	return out
}

// typos and stopWords are the settings with defaults, their lists in order: a list in
// another order is the same set.
func typos(s searchv1alpha1.IndexSettings) searchv1alpha1.TypoTolerance {
	t := relevance.TypoTolerance(s)
	slices.Sort(t.DisableOnFields)
	slices.Sort(t.DisableOnWords)
	return t
}

func stopWords(s searchv1alpha1.IndexSettings) searchv1alpha1.StopWords {
	w := relevance.StopWords(s)
	slices.Sort(w.Words)
	return w
}
