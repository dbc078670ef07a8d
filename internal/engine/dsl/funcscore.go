package dsl

import (
	"context"
	"fmt"
	"math"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/columns"
	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/scoring"
)

// functionScoreQuery is Elasticsearch's function_score (FunctionScoreQuery): its query's
// documents, each score combined (boost_mode) with the functions whose filter it matches,
// themselves combined by score_mode.
type functionScoreQuery struct {
	boosted
	query     bq.Query
	functions []*scoreFunction
	scoreMode string
	boostMode string
	maxBoost  float64
	minScore  *float32
}

// scoreFunction is one entry of functions: its filter (nil: every document), its weight,
// and the function it weighs (nil: the weight alone).
type scoreFunction struct {
	filter bq.Query
	weight float64
	fn     valueFunction
}

// valueFunction is a function of a document's field values, bound to one reader.
type valueFunction interface {
	bind(v *columns.View) (func(seg int, local uint64) (float64, error), error)
}

var scoreModes = []string{"multiply", "sum", "avg", "first", "max", "min"}
var boostModes = []string{"multiply", "replace", "sum", "avg", "max", "min"}

func parseFunctionScore(c *Context, body any) (bq.Query, error) {
	m, err := asObject("function_score", body)
	if err != nil {
		return nil, err
	}
	q := &functionScoreQuery{boosted: unboosted(), query: bleve.NewMatchAllQuery(), scoreMode: "multiply", boostMode: "multiply", maxBoost: math.MaxFloat32}
	for _, k := range sortedKeys(m) {
		if err := q.set(c, k, m[k], m); err != nil {
			return nil, err
		}
	}
	return applyBoost(q, m)
}

// set reads one key of function_score's body.
func (q *functionScoreQuery) set(c *Context, k string, v any, m map[string]any) error {
	var err error
	switch k {
	case "query":
		q.query, err = c.parse(v)
	case "functions":
		if hasTopFunction(m) {
			return eserr.Parsing("failed to parse [function_score] query. already found function, now encountering [functions]. use [functions] array if you want to define several functions.")
		}
		err = q.parseFunctions(c, v)
	case "score_mode":
		q.scoreMode, err = oneOf("score_mode", v, scoreModes)
	case "boost_mode":
		q.boostMode, err = oneOf("boost_mode", v, boostModes)
	case "max_boost":
		q.maxBoost, err = num(v)
	case "min_score":
		var f float64
		f, err = num(v)
		q.minScore = ptrTo(float32(f))
	case "boost", "_name":
	default:
		if _, isFunction := functionParsers[k]; !isFunction && k != "weight" {
			return eserr.Parsing("function_score query does not support [%s]", k)
		}
		if _, ok := m["functions"]; ok || len(q.functions) > 0 {
			return nil // the top-level function is read once, below
		}
		fn, ferr := c.parseFunction(m, true)
		q.functions, err = []*scoreFunction{fn}, ferr
	}
	if err != nil && eserr.As(err) == nil {
		return eserr.Parsing("[function_score] failed to parse [%s]: %s", k, err.Error())
	}
	return err
}

func ptrTo[T any](v T) *T { return &v }

func hasTopFunction(m map[string]any) bool {
	for k := range m {
		if _, ok := functionParsers[k]; ok || k == "weight" {
			return true
		}
	}
	return false
}

func oneOf(key string, v any, allowed []string) (string, error) {
	s, _ := v.(string)
	for _, a := range allowed {
		if s == a {
			return s, nil
		}
	}
	return "", eserr.IllegalArgument("Illegal %s [%v]", key, v)
}

func (q *functionScoreQuery) parseFunctions(c *Context, v any) error {
	arr, ok := v.([]any)
	if !ok {
		return eserr.Parsing("failed to parse [function_score] query. [functions] must be an array")
	}
	for _, el := range arr {
		m, ok := el.(map[string]any)
		if !ok {
			return eserr.Parsing("failed to parse [function_score] query. malformed query, expected a [START_OBJECT] while parsing functions")
		}
		fn, err := c.parseFunction(m, false)
		if err != nil {
			return err
		}
		q.functions = append(q.functions, fn)
	}
	return nil
}

// parseFunction reads a function: its weight, filter (not at the top level) and at most
// one function.
func (c *Context) parseFunction(m map[string]any, top bool) (*scoreFunction, error) {
	f := &scoreFunction{weight: 1}
	var err error
	for _, k := range sortedKeys(m) {
		v := m[k]
		switch parse, isFunction := functionParsers[k]; {
		case k == "weight":
			f.weight, err = num(v)
		case k == "filter" && !top:
			f.filter, err = c.parse(v)
		case isFunction:
			if f.fn != nil {
				return nil, eserr.Parsing("failed to parse function_score functions. already found [%s], now encountering [%s].", "function", k)
			}
			f.fn, err = parse(c, v)
		case top:
			continue
		default:
			return nil, eserr.Parsing("failed to parse function_score functions. unknown field [%s]", k)
		}
		if err != nil {
			return nil, err
		}
	}
	return f, nil
}

// Searcher implements bq.Query: without scores a function_score matches its query's
// documents, unless min_score makes the scores decide.
func (q *functionScoreQuery) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (search.Searcher, error) {
	if q.minScore != nil {
		return q.scorer(ctx, r, m, o, 1)
	}
	return searcherOf(ctx, q, r, m, o, func() (search.Searcher, error) {
		return q.query.Searcher(ctx, r, m, o)
	})
}

// scorer: the boost goes into the query's score, as Lucene passes it to the query's
// weight (so boost_mode replace drops it, as in ES).
func (q *functionScoreQuery) scorer(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions, boost float32) (search.Searcher, error) {
	v, ok := columns.ViewOf(r)
	if !ok {
		return nil, fmt.Errorf("function_score needs a scorch index, got %T", r)
	}
	fs := &funcScorer{q: q, view: v}
	for _, f := range q.functions {
		if err := fs.bindFunction(ctx, r, m, o, f); err != nil {
			_ = fs.Close()
			return nil, err
		}
	}
	sub, err := scorerOf(ctx, q.query, r, m, o, q.times(boost))
	if err != nil {
		_ = fs.Close()
		return nil, err
	}
	fs.Searcher = sub
	return fs, nil
}

// bindFunction prepares a function for one reader: its filter's searcher and its values.
func (fs *funcScorer) bindFunction(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions, f *scoreFunction) error {
	b := boundFunction{weight: f.weight}
	if f.filter != nil {
		s, err := f.filter.Searcher(ctx, r, m, matchOnly(o))
		if err != nil {
			return err
		}
		b.filter = scoring.NewFollower(s)
	}
	fs.fns = append(fs.fns, b)
	if f.fn == nil {
		return nil
	}
	eval, err := f.fn.bind(fs.view)
	fs.fns[len(fs.fns)-1].eval = eval
	return err
}
