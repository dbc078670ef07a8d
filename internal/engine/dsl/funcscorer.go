package dsl

import (
	"math"

	"github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/columns"
	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/scoring"
)

// boundFunction is a function of function_score bound to one reader.
type boundFunction struct {
	filter *scoring.Follower // nil: every document
	weight float64
	eval   func(seg int, local uint64) (float64, error) // nil: the weight alone
}

// funcScorer is ES's FunctionFactorScorer over the query's scorer.
type funcScorer struct {
	search.Searcher
	q    *functionScoreQuery
	view *columns.View
	fns  []boundFunction
	hint int
}

// Next implements search.Searcher.
func (s *funcScorer) Next(ctx *search.SearchContext) (*search.DocumentMatch, error) {
	dm, err := s.Searcher.Next(ctx)
	return s.score(ctx, dm, err)
}

// Advance implements search.Searcher.
func (s *funcScorer) Advance(ctx *search.SearchContext, id index.IndexInternalID) (*search.DocumentMatch, error) {
	dm, err := s.Searcher.Advance(ctx, id)
	return s.score(ctx, dm, err)
}

// score scores dm, and the next documents while min_score leaves them out.
func (s *funcScorer) score(ctx *search.SearchContext, dm *search.DocumentMatch, err error) (*search.DocumentMatch, error) {
	for ; err == nil && dm != nil; dm, err = s.Searcher.Next(ctx) {
		final, ferr := s.final(ctx, dm)
		if ferr != nil {
			return nil, ferr
		}
		if s.q.minScore == nil || final >= *s.q.minScore {
			dm.Score = float64(final)
			return dm, nil
		}
		ctx.DocumentMatchPool.Put(dm)
	}
	return nil, err
}

func (s *funcScorer) final(ctx *search.SearchContext, dm *search.DocumentMatch) (float32, error) {
	sub := float32(dm.Score)
	if len(s.fns) == 0 {
		return sub, nil
	}
	factor, err := s.factor(ctx, dm)
	if err != nil {
		return 0, err
	}
	final := combineScores(s.q.boostMode, float64(sub), factor, s.q.maxBoost)
	if final < 0 || math.IsNaN(float64(final)) {
		return 0, eserr.IllegalArgument("function score query returned an invalid score: %v for doc: %d", final, dm.IndexInternalID.Value())
	}
	return final, nil
}

// factor is FunctionFactorScorer.computeScore: the matching functions' scores combined
// by score_mode, 1 when none matches.
func (s *funcScorer) factor(ctx *search.SearchContext, dm *search.DocumentMatch) (float64, error) {
	seg, local := s.view.Locate(dm.IndexInternalID, s.hint)
	s.hint = seg
	acc := newAccumulator(s.q.scoreMode)
	for _, f := range s.fns {
		if f.filter != nil {
			on, err := f.filter.On(ctx, dm.IndexInternalID)
			if err != nil {
				return 0, err
			}
			if !on {
				continue
			}
		}
		score := f.weight
		if f.eval != nil {
			v, err := f.eval(seg, local)
			if err != nil {
				return 0, err
			}
			score *= v
		}
		if acc.add(score, f.weight) {
			break
		}
	}
	return acc.result(), nil
}

// accumulator combines function scores as ES's score_mode says.
type accumulator struct {
	mode      string
	value     float64
	weightSum float64
	any       bool
}

func newAccumulator(mode string) *accumulator {
	a := &accumulator{mode: mode}
	switch mode {
	case "multiply":
		a.value = 1
	case "max":
		a.value = math.Inf(-1)
	case "min":
		a.value = math.Inf(1)
	}
	return a
}

// add takes one matching function's score; it reports whether the rest can be skipped.
func (a *accumulator) add(score, weight float64) bool {
	a.any = true
	switch a.mode {
	case "first":
		a.value = score
		return true
	case "max":
		a.value = math.Max(a.value, score)
	case "min":
		a.value = math.Min(a.value, score)
	case "multiply":
		a.value *= score
	default: // sum, avg
		a.value += score
		a.weightSum += weight
	}
	return false
}

func (a *accumulator) result() float64 {
	switch {
	case !a.any:
		return 1
	case a.mode == "avg" || a.mode == "sum":
		if a.weightSum == 0 {
			return 1
		}
		if a.mode == "avg" {
			return a.value / a.weightSum
		}
	}
	return a.value
}

// combineScores is ES's CombineFunction: the query's score and the functions' factor (capped
// by max_boost), rounded to a float.
func combineScores(mode string, query, factor, maxBoost float64) float32 {
	f := math.Min(factor, maxBoost)
	switch mode {
	case "replace":
		return float32(f)
	case "sum":
		return float32(query + f)
	case "avg":
		return float32((f + query) / 2)
	case "min":
		return float32(math.Min(query, f))
	case "max":
		return float32(math.Max(query, f))
	}
	return float32(query * f)
}

// Close implements search.Searcher.
func (s *funcScorer) Close() error {
	var err error
	if s.Searcher != nil {
		err = s.Searcher.Close()
	}
	for _, f := range s.fns {
		if f.filter != nil {
			if cerr := f.filter.Close(); err == nil {
				err = cerr
			}
		}
	}
	return err
}

// DocumentMatchPoolSize implements search.Searcher.
func (s *funcScorer) DocumentMatchPoolSize() int {
	n := s.Searcher.DocumentMatchPoolSize()
	for _, f := range s.fns {
		if f.filter != nil {
			n += f.filter.DocumentMatchPoolSize()
		}
	}
	return n
}
