package aggs

import (
	"sort"

	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/aislehq/aisle/internal/engine/dsl"
	"github.com/aislehq/aisle/internal/engine/eserr"
)

// significance holds what a significant_terms aggregation adds to a terms one: how
// terms are scored, against which background, and the per-shard minimum.
type significance struct {
	heuristic        heuristic
	background       bq.Query // nil: every document of the index
	shardMinDocCount int
}

// sigTermsParams are the parameters of significant_terms, as Elasticsearch's parser
// declares them (the candidates of its "did you mean" suggestions).
var sigTermsParams = []string{"field", "size", "shard_size", "min_doc_count", "shard_min_doc_count",
	"execution_hint", "include", "exclude", "background_filter", "missing", "format", "value_type", "script",
	"jlh", "percentage", "mutual_information", "chi_square", "gnd", "script_heuristic"}

// parseSignificant reads a significant_terms body: size 10, min_doc_count 3 and the JLH
// heuristic unless it says otherwise.
func (a *Agg) parseSignificant(body map[string]any, c *dsl.Context) error {
	for _, k := range sortedNames(body) {
		if !contains(sigTermsParams, k) {
			return eserr.XContentParse("[1:1] [significant_terms] unknown field [%s]%s", k, eserr.DidYouMean(k, sigTermsParams))
		}
	}
	for _, k := range []string{"script", "script_heuristic", "missing", "value_type"} {
		if _, ok := body[k]; ok {
			return eserr.IllegalArgument("[significant_terms] [%s] is not supported by this engine (aggregation [%s])", k, a.Name)
		}
	}
	field, _ := body["field"].(string)
	if field == "" {
		return eserr.IllegalArgument("Required [field] for aggregation [%s]", a.Name)
	}
	a.Field, a.Leaf = field, fielddataLeaf(c.Leaf(field))
	a.Format, _ = body["format"].(string)
	a.Sig = &significance{heuristic: heuristic{name: "jlh", backgroundIsSuperset: true}}
	if err := a.parseSigCounts(body); err != nil {
		return err
	}
	if err := a.parseHeuristic(body); err != nil {
		return err
	}
	if v, ok := body["background_filter"]; ok {
		q, err := dsl.ParseValue(v, c)
		if err != nil {
			return err
		}
		a.Sig.background = q
	}
	a.Order = []OrderKey{{Key: "_count", Desc: true}, {Key: "_key"}}
	return a.parseIncludeExclude(body)
}

func (a *Agg) parseSigCounts(body map[string]any) error {
	a.Size, a.MinDocCount = 10, 3
	counts := []struct {
		name string
		dst  *int
		min  int
	}{{"size", &a.Size, 1}, {"min_doc_count", &a.MinDocCount, 0}, {"shard_min_doc_count", &a.Sig.shardMinDocCount, 0}, {"shard_size", new(int), -1}}
	for _, c := range counts {
		v, ok := body[c.name]
		if !ok {
			continue
		}
		n, err := toInt(v)
		if err != nil || n < c.min {
			return eserr.IllegalArgument("[%s] must be greater than or equal to %d. Found [%v] in [%s]", c.name, c.min, v, a.Name)
		}
		*c.dst = n
	}
	return nil
}

// parseHeuristic reads the one heuristic object the body may hold.
func (a *Agg) parseHeuristic(body map[string]any) error {
	found := ""
	for _, name := range heuristicNames {
		v, ok := body[name]
		if !ok {
			continue
		}
		if found != "" {
			return eserr.Parsing("Found two significance heuristics in [%s]: [%s] and [%s]", a.Name, found, name)
		}
		found = name
		params, ok := v.(map[string]any)
		if !ok {
			return eserr.Parsing("[%s] expected an object, got [%v]", name, v)
		}
		h, err := heuristicOf(name, params)
		if err != nil {
			return err
		}
		a.Sig.heuristic = h
	}
	return nil
}

func heuristicOf(name string, params map[string]any) (heuristic, error) {
	h := heuristic{name: name, backgroundIsSuperset: true}
	allowed := map[string][]string{
		"mutual_information": {"include_negatives", "background_is_superset"},
		"chi_square":         {"include_negatives", "background_is_superset"},
		"gnd":                {"background_is_superset"},
	}[name]
	for _, k := range sortedNames(params) {
		b, isBool := params[k].(bool)
		switch {
		case !contains(allowed, k):
			return h, eserr.XContentParse("[1:1] [%s] unknown field [%s]%s", name, k, eserr.DidYouMean(k, allowed))
		case !isBool:
			return h, eserr.XContentParse("[1:1] [%s] failed to parse field [%s]", name, k)
		case k == "include_negatives":
			h.includeNegatives = b
		default:
			h.backgroundIsSuperset = b
		}
	}
	return h, nil
}

func sortedNames(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
