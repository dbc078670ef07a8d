package searchquery

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// How telling a query word is comes from the index itself: the number of records its
// clause matches (its document frequency), read with one filters aggregation for the
// words a replica has not seen lately. A word few records hold weighs more in the words
// criterion than one most records hold, as BM25's inverse document frequency says; a
// word no record holds is ignored (and, five letters or more, first tried with its
// first letter wrong, the typo a shopper most often makes on a phone).

// WordStats are the document frequencies of word clauses, by their key, and the number
// of records they were counted among.
type WordStats struct {
	Records int64
	Freq    map[string]int64
}

// WordClause is one clause whose document frequency a plan needs.
type WordClause struct {
	Key    string
	clause any
}

// wordsScale is how many levels of the words criterion each word is worth on average:
// enough for a rare word to outweigh two common ones, few enough to leave later
// criteria room in the score.
const wordsScale = 4

// relaxMinLetters is the length from which a word no record holds may match with its
// first letter wrong (counted as two typos).
const relaxMinLetters = 5

// WordClauses are the clauses whose frequencies a request's ranking weighs: each unit of
// its words, and its relaxed form for the words that may need one. None for matching
// strategies that do not weigh words, or an empty query.
func WordClauses(req Request, r Access, s Schema) []WordClause {
	tp := newTextPlan(req, r, s, 0, nil)
	if tp.strategy != StrategyFrequency {
		return nil
	}
	var out []WordClause
	for _, u := range tp.units {
		normal, relaxed := tp.countClauses(u)
		for _, c := range []any{normal, relaxed} {
			if c == nil {
				continue
			}
			out = append(out, WordClause{Key: clauseKey(c), clause: c})
		}
	}
	return out
}

func noLevel(int, int) int { return 0 }

// WordStatsBody is the search counting the records each clause matches.
func WordStatsBody(clauses []WordClause) ([]byte, error) {
	filters := make(map[string]any, len(clauses))
	for i, c := range clauses {
		filters[strconv.Itoa(i)] = c.clause
	}
	return json.Marshal(map[string]any{"size": 0, "track_total_hits": true,
		"aggs": map[string]any{"words": map[string]any{"filters": map[string]any{"filters": filters}}}})
}

// ParseWordStats reads the answer of WordStatsBody(clauses).
func ParseWordStats(clauses []WordClause, raw []byte) (WordStats, error) {
	var res struct {
		totalOnly
		Aggregations struct {
			Words struct {
				Buckets map[string]struct {
					DocCount int64 `json:"doc_count"`
				} `json:"buckets"`
			} `json:"words"`
		} `json:"aggregations"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return WordStats{}, fmt.Errorf("decoding word frequencies: %w", err)
	}
	out := WordStats{Records: res.Hits.Total.Value, Freq: make(map[string]int64, len(clauses))}
	for i, c := range clauses {
		out.Freq[c.Key] = res.Aggregations.Words.Buckets[strconv.Itoa(i)].DocCount
	}
	return out, nil
}

// idf is BM25's inverse document frequency of a clause matching df of n records.
func idf(df, n int64) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// wordWeights are the units' levels in the words criterion: their idf's share of the
// query's, in about wordsScale levels a unit, at least one. A unit of weight 0 matches
// nothing and is left out.
func wordWeights(df []int64, n int64) []int {
	total := 0.0
	for _, d := range df {
		if d > 0 {
			total += idf(d, n)
		}
	}
	out := make([]int, len(df))
	if total == 0 {
		return out
	}
	levels := float64(wordsScale * len(df))
	for i, d := range df {
		if d > 0 {
			out[i] = max(1, int(math.Round(levels*idf(d, n)/total)))
		}
	}
	return out
}

// weigh sets the words' weights from stats: a unit whose clause no record matches takes
// its relaxed clause when that matches, else it is ignored. Without stats (a request only
// validated) every word weighs the same.
func (p *textPlan) weigh(stats WordStats) {
	p.weights = make([]int, len(p.words.kept))
	p.relaxed = make([]bool, len(p.units))
	df := make([]int64, len(p.units))
	for i, u := range p.units {
		df[i] = 1
		if stats.Freq == nil {
			continue
		}
		normal, relaxed := p.countClauses(u)
		df[i] = stats.Freq[clauseKey(normal)]
		if df[i] == 0 && relaxed != nil {
			df[i] = stats.Freq[clauseKey(relaxed)]
			p.relaxed[i] = df[i] > 0
		}
	}
	n := max(stats.Records, 1)
	for i, w := range wordWeights(df, n) {
		p.spread(p.units[i], w)
	}
	var ignored []string
	for i, w := range p.weights {
		if w == 0 {
			ignored = append(ignored, p.words.kept[i].text)
		}
	}
	p.words.ignored = append(ignored, p.words.ignored...)
}

// spread gives a unit's weight to its words, the remainder to its first.
func (p *textPlan) spread(u unit, w int) {
	share := w / u.size()
	for i := u.first; i <= u.last; i++ {
		p.weights[i] = share
	}
	p.weights[u.first] += w - share*u.size()
}

// wordsOf is the weight of k kept words from from on.
func (p textPlan) wordsOf(from, k int) int {
	sum := 0
	for _, w := range p.weights[from : from+k] {
		sum += w
	}
	return sum
}

// ignoredUnit reports a unit of words no record holds.
func (p textPlan) ignoredUnit(u unit) bool {
	return p.weights != nil && p.wordsOf(u.first, u.size()) == 0
}

// relaxedClause matches a one-word unit with one edit anywhere, the first letter
// included, counted as two typos: for words of relaxMinLetters letters and more that
// may carry one typo only (longer ones already may carry two). Nil for other units.
func (p textPlan) relaxedClause(u unit, name string) any {
	if u.size() != 1 || len(u.alts) > 0 {
		return nil
	}
	w := p.words.kept[u.first]
	if p.typos.allowed(w) != 1 || len([]rune(w.fold)) < relaxMinLetters {
		return nil
	}
	level := 0
	if p.weights != nil {
		level = p.weights[u.first]
	}
	var out []variant
	for _, g := range p.groups(typoFields) {
		out = append(out, constant(textMatch(g.paths, w.text, fuzzy(1, 0)), p.radix.boost(levels{level, 0, g.rank, 0})))
	}
	if len(out) == 0 {
		return nil
	}
	return bestOf(out, name)
}

// countClauses are a unit's clauses as its frequencies are counted: without levels, so
// that one word is counted once whatever query it comes in.
func (p textPlan) countClauses(u unit) (normal, relaxed any) {
	p.radix, p.weights = radix{}, nil
	return p.unitClause(u, noLevel, ""), p.relaxedClause(u, "")
}

func clauseKey(c any) string {
	raw, _ := json.Marshal(c)
	return string(raw)
}
