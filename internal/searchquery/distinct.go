package searchquery

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// Variants: the index's distinct setting groups records by a field's value, and a search
// returns at most limit hits per group, the best-ranked ones. Elasticsearch's collapse
// keeps each group's best record, in the order of the hits, and pages over groups; its
// inner_hits (the same query, post_filter and sort within the group) give the group's
// next records: with a limit above 1 they follow the group's best record in the hits, so
// a group's hits stand together, and a hit's variants are the group's other records.
// total counts groups: a cardinality aggregation of the field (exact up to
// precisionThreshold groups, Elasticsearch's HyperLogLog++ beyond, within a few percent)
// plus the records without the field, each a group of its own. Facets count records.

// Limits of distinct and variants.
const (
	// MaxDistinct bounds the hits per group a request asks for.
	MaxDistinct = searchv1alpha1.MaxDistinctLimit
	// MaxVariants bounds variantsLimit.
	MaxVariants = 20
	// precisionThreshold is the cardinality aggregation's: the most Elasticsearch takes.
	precisionThreshold = 40000
	// groupHits names the inner hits of a group.
	groupHits = "group"
)

// Distinct is a request's distinct: true (the index's limit), false, or a number of hits
// per group (0 is false).
type Distinct struct {
	// Setting: true, the index's limit; else Limit (0 for none).
	Setting bool
	Limit   int
}

// errDistinct is the decoding error of a distinct that is neither a boolean nor a
// whole number.
var errDistinct = errors.New("must be true, false or a whole number of hits per group")

// UnmarshalJSON reads true, false or a whole number.
func (d *Distinct) UnmarshalJSON(b []byte) error {
	switch string(bytes.TrimSpace(b)) {
	case "true":
		*d = Distinct{Setting: true}
		return nil
	case "false":
		*d = Distinct{}
		return nil
	}
	var n float64
	if err := json.Unmarshal(b, &n); err != nil || n != math.Trunc(n) || math.Abs(n) > 1e6 {
		return errDistinct
	}
	*d = Distinct{Limit: int(n)}
	return nil
}

// MarshalJSON writes the request's form back.
func (d Distinct) MarshalJSON() ([]byte, error) {
	if d.Setting {
		return []byte("true"), nil
	}
	if d.Limit == 0 {
		return []byte("false"), nil
	}
	return json.Marshal(d.Limit)
}

// distinctPlan is the grouping of one search.
type distinctPlan struct {
	// field is the exact-value field grouped on.
	field string
	// limit is the hits per group; variants the variants per hit.
	limit, variants int
	// desc are the directions of the hits' sort keys, by which the merge round's two
	// lists are merged (distinctmerge.go).
	desc []bool
}

// distinctOf resolves the request's distinct against the index's setting: nil when the
// search does not group. A field no record holds yet groups nothing: each record is
// its own group, which is an ungrouped search.
func distinctOf(req Request, r Access, s Schema, p *problems) *distinctPlan {
	if req.VariantsLimit < 0 || req.VariantsLimit > MaxVariants {
		p.add("variantsLimit", "must be between 0 and %d", MaxVariants)
	}
	d, setting := req.Distinct, r.Settings.Distinct
	if d != nil && (d.Limit < 0 || d.Limit > MaxDistinct) {
		p.add("distinct", "must be true, false or a number of hits per group from 0 to %d", MaxDistinct)
		return nil
	}
	if on := d == nil && setting != nil || d != nil && (d.Setting || d.Limit > 0); !on {
		return nil
	}
	if setting == nil {
		p.add("distinct", "the index has no distinct setting: set distinct.field in its settings first")
		return nil
	}
	limit := int(max(setting.Limit, 1))
	if d != nil && !d.Setting {
		limit = d.Limit
	}
	f, known := s[string(setting.Field)]
	switch {
	case !known:
		return nil
	case !f.HasValues():
		p.add("distinct", "field %q holds values that cannot group records", setting.Field)
		return nil
	}
	return &distinctPlan{field: f.Keyword, limit: limit, variants: max(req.VariantsLimit, 0)}
}

// sortedBy is the grouping of hits sorted in the directions desc (nil: no grouping).
func (d *distinctPlan) sortedBy(desc []bool) *distinctPlan {
	if d == nil {
		return nil
	}
	out := *d
	out.desc = desc
	return &out
}

// innerSize is the records read per group: its hits and, for each, its variants.
func (d *distinctPlan) innerSize() int {
	return max(d.limit, d.variants+1)
}

// collapse is the search's collapse: the group's next records in the hits' sort, with
// the same fields and highlights.
func (d *distinctPlan) collapse(sort []any, source sourceFilter, highlight *highlightBody) map[string]any {
	c := map[string]any{"field": d.field}
	if n := d.innerSize(); n > 1 {
		inner := map[string]any{"name": groupHits, "size": n, "sort": sort, "_source": source}
		if highlight != nil {
			inner["highlight"] = highlight
		}
		c["inner_hits"] = inner
	}
	return c
}

// countAgg counts the groups among the records matching every selection, but the
// promoted ones (promotedOut, when some are: they are counted once, in the promoted
// records): the values of the field, and the records without it.
func (d *distinctPlan) countAgg(sel selection, promotedOut any) map[string]any {
	filter := sel.postFilter()
	if filter == nil {
		filter = map[string]any{"match_all": map[string]any{}}
	}
	if promotedOut != nil {
		filter = map[string]any{"bool": map[string]any{"filter": []any{filter, promotedOut}}}
	}
	missing := map[string]any{"bool": map[string]any{"must_not": []any{map[string]any{"exists": map[string]any{"field": d.field}}}}}
	return map[string]any{"filter": filter, "aggs": map[string]any{
		"n":       map[string]any{"cardinality": map[string]any{"field": d.field, "precision_threshold": precisionThreshold}},
		"missing": map[string]any{"filter": missing},
	}}
}

// groupCount is the answer of countAgg.
type groupCount struct {
	N struct {
		Value int64 `json:"value"`
	} `json:"n"`
	Missing struct {
		DocCount int64 `json:"doc_count"`
	} `json:"missing"`
}

// total is the number of groups.
func (d *distinctPlan) total(raw json.RawMessage) (int64, error) {
	var c groupCount
	if err := json.Unmarshal(raw, &c); err != nil {
		return 0, fmt.Errorf("decoding the group count: %w", err)
	}
	return c.N.Value + c.Missing.DocCount, nil
}

// expand turns the group of one collapsed hit into its hits: the best record, then the
// group's next ones up to the limit, each with the group's other records as variants.
func (d *distinctPlan) expand(top esHit, shape func(esHit) (Hit, error)) ([]Hit, error) {
	members := top.InnerHits[groupHits].Hits.Hits
	if len(members) == 0 {
		members = []esHit{top}
	}
	members[0] = top
	n := min(d.limit, len(members))
	out := make([]Hit, 0, n)
	for j := 0; j < n; j++ {
		hit, err := shape(members[j])
		if err != nil {
			return nil, err
		}
		if hit.Variants, err = d.variantsOf(members, j); err != nil {
			return nil, err
		}
		out = append(out, hit)
	}
	return out, nil
}

// variantsOf are the group's records but the j-th, best-ranked first, up to the limit.
func (d *distinctPlan) variantsOf(members []esHit, j int) ([]Variant, error) {
	var out []Variant
	for k, m := range members {
		if k == j || len(out) == d.variants {
			continue
		}
		hit, err := shapeHit(m, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, Variant{ObjectID: hit.ObjectID, Record: hit.Record})
	}
	return out, nil
}

// Variant is another record of a hit's group.
type Variant struct {
	ObjectID string          `json:"objectID"`
	Record   json.RawMessage `json:"record"`
}

// groupsAgg names the aggregation counting the groups.
const groupsAgg = "groups"

// withFacetsAndGroups is body with the facets' aggregations, the selections of
// facetFilters as its post_filter and, with distinct, the collapse and the group count
// (without the promoted records, promotedOut).
func withFacetsAndGroups(body searchBody, sh Shaping, req Request, s Schema, sel selection, promotedOut any) searchBody {
	aggs := facetAggs(sh.facets, req, s, sel)
	if pf := sel.postFilter(); pf != nil {
		body.PostFilter = pf
	}
	if d := sh.distinct; d != nil {
		body.Collapse = d.collapse(body.Sort, body.Source, body.Highlight)
		aggs[groupsAgg] = d.countAgg(sel, promotedOut)
	}
	if len(aggs) > 0 {
		body.Aggs = aggs
	}
	return body
}
