package searchquery

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// Ranking is why a hit is where it is: the level of each criterion, decoded from the
// hit's score with the radix its query was built with (never computed a second way).
type Ranking struct {
	// Words is the number of query words matched (with matchingStrategy last, the
	// length of the run of first query words matched).
	Words int `json:"words"`
	// MissingWords are the query words the hit does not match (matching strategies
	// frequency and any), in query order.
	MissingWords []string `json:"missingWords,omitempty"`
	// Typo is the number of typos in the matched words: a transposition or a letter
	// wrong, missing or extra counts one, a first letter two. It is named for its
	// ranking criterion, typo, as every other level is.
	Typo int `json:"typo"`
	// Proximity sums, over pairs of adjacent query words, 3 when a field holds them side
	// by side in order, 2 within two position moves (a word between them, or the two
	// swapped), 1 within eight, 0 farther apart or in different fields.
	Proximity int `json:"proximity"`
	// Attribute sums, over matched words, the rank of the heaviest field matched: 0 for
	// the lightest weight, one more for each heavier weight.
	Attribute int `json:"attribute"`
	// Exact is the number of words matched whole (plurals and synonyms included), not
	// as a prefix or with typos.
	Exact int `json:"exact"`
	// Custom are the hit's values of the customRanking fields, Sort of the request's
	// sort fields (null where the record has none).
	Custom map[string]any `json:"custom"`
	Sort   map[string]any `json:"sort,omitempty"`
	// CustomLevel and SortLevel are the level of a criterion moved before text criteria
	// (its first field cut into ranges of values; higher ranks first).
	CustomLevel *int `json:"customLevel,omitempty"`
	SortLevel   *int `json:"sortLevel,omitempty"`
	// Rules is the weight the merchandising rules gave the hit: the boosts it matches
	// less the buries it matches (absent when no rule boosts or buries).
	Rules *int `json:"rules,omitempty"`
	// SemanticSimilarity is the hit's similarity to the query's vector, as the kNN
	// search scores it (cosine: (1+cos)/2, 0..1), with hybrid; absent when the record
	// has no vector for the embedder.
	SemanticSimilarity *float64 `json:"semanticSimilarity,omitempty"`
	// ReRank is how re-ranking moved the hit on the first page (absent when it did
	// not apply to the search, or had no score for the hit).
	ReRank *ReRankShift `json:"reRank,omitempty"`
}

// explainPlan is what decoding a hit's ranking needs.
type explainPlan struct {
	radix radix
	// words is the number of query words used; every hit matched all with strategy all.
	words    int
	allMatch bool
	// keys are the sort keys, in the order of a hit's sort values; scoreAt is the
	// position of _score among them.
	keys    []sortKey
	scoreAt int
	// rulesShift is the rules' band's level of a hit no boost or bury matches.
	rulesShift int64
	// popularity: the custom band is the popularity level (popularity.go).
	popularity bool
	// units are the words of each named unit; nil when the units are not named.
	units map[string][]string
	// semantic is the search by meaning whose similarity each hit shows; nil: none.
	semantic *semanticPlan
}

func newExplainPlan(tp textPlan, o hitOrder) *explainPlan {
	e := &explainPlan{radix: tp.radix, words: len(tp.words.kept), allMatch: tp.strategy == StrategyAll,
		keys: append(append(append([]sortKey{}, o.before...), sortKey{}), o.after...), scoreAt: len(o.before)}
	if tp.named {
		e.units = tp.unitWords()
	}
	return e
}

// matchedWords sets a hit's words and missing words from the units it matched.
func (e *explainPlan) matchedWords(r *Ranking, matched []string) {
	if e.units == nil {
		return
	}
	r.Words = 0
	names := make([]string, 0, len(e.units))
	for n := range e.units {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int { return unitIndex(a) - unitIndex(b) })
	for _, n := range names {
		if slices.Contains(matched, n) {
			r.Words += len(e.units[n])
			continue
		}
		r.MissingWords = append(r.MissingWords, e.units[n]...)
	}
}

func unitIndex(name string) int {
	i, _ := strconv.Atoi(name[1:])
	return i
}

// ranking decodes a hit's sort values.
func (e *explainPlan) ranking(sortValues []json.RawMessage, matched []string) *Ranking {
	r := &Ranking{Custom: map[string]any{}}
	var score float64
	if e.scoreAt < len(sortValues) {
		_ = json.Unmarshal(sortValues[e.scoreAt], &score)
	}
	lv := e.radix.decode(score)
	r.Words = int(lv[critWords])
	if !e.radix.has(critWords) && e.allMatch {
		r.Words = e.words
	}
	e.matchedWords(r, matched)
	if e.radix.has(critTypo) {
		r.Typo = max(0, 2*r.Words-int(lv[critTypo]))
	}
	r.Proximity, r.Attribute, r.Exact = int(lv[critProximity]), int(lv[critAttribute]), int(lv[critExact])
	r.CustomLevel, r.SortLevel = levelOf(e.radix, lv, critCustom), levelOf(e.radix, lv, critSort)
	if e.popularity && r.CustomLevel != nil {
		r.Custom[string(searchv1alpha1.PopularityField)], r.CustomLevel = *r.CustomLevel, nil
	}
	if l := levelOf(e.radix, lv, critRules); l != nil {
		*l -= int(e.rulesShift)
		r.Rules = l
	}
	for i, k := range e.keys {
		if k.criterion == "" || i >= len(sortValues) {
			continue
		}
		v := valueOf(sortValues[i])
		if k.criterion == critCustom {
			r.Custom[k.path] = v
			continue
		}
		if r.Sort == nil {
			r.Sort = map[string]any{}
		}
		r.Sort[k.path] = v
	}
	return r
}

func levelOf(r radix, lv map[searchv1alpha1.RankingCriterion]int64, c searchv1alpha1.RankingCriterion) *int {
	if !r.has(c) {
		return nil
	}
	n := int(lv[c])
	return &n
}

// valueOf is a sort value as the record holds it: Elasticsearch gives a missing value
// as the extreme of its type, which explain shows as null.
func valueOf(raw json.RawMessage) any {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return nil
	}
	if n, ok := v.(json.Number); ok {
		if f, err := n.Float64(); err == nil && (f >= 9.2e18 || f <= -9.2e18 || f >= 1.7e308 || f <= -1.7e308) {
			return nil
		}
	}
	return v
}

// unitName is the query name of unit i's clause: a hit's matched_queries say which
// units it matched.
func unitName(i int) string { return "w" + strconv.Itoa(i) }

// clauseName is the name unit i's clause is built with when explain reads the units a
// hit matched (named), "" otherwise.
func (p textPlan) clauseName(i int) string {
	if !p.named {
		return ""
	}
	return unitName(i)
}

// unitWords are the query words of each unit, by unit name, for the units the query
// matches.
func (p textPlan) unitWords() map[string][]string {
	out := map[string][]string{}
	for i, u := range p.units {
		if !p.ignoredUnit(u) {
			out[unitName(i)] = wordsOf(p.words.kept[u.first : u.last+1])
		}
	}
	return out
}
