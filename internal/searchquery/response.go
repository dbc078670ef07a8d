package searchquery

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/aislehq/aisle/internal/indexmapping"
)

// esResponse is the part of an Elasticsearch search answer the API uses.
type esResponse struct {
	Hits struct {
		Total struct {
			Value int64 `json:"value"`
		} `json:"total"`
		Hits []esHit `json:"hits"`
	} `json:"hits"`
	Aggregations map[string]json.RawMessage `json:"aggregations"`
}

// esHit is one hit of an Elasticsearch answer.
type esHit struct {
	ID        string                       `json:"_id"`
	Source    json.RawMessage              `json:"_source"`
	Highlight map[string][]string          `json:"highlight"`
	Sort      []json.RawMessage            `json:"sort"`
	Fields    map[string][]json.RawMessage `json:"fields"`
	// MatchedQueries are the names of the clauses the hit matched (explain).
	MatchedQueries []string `json:"matched_queries"`
	InnerHits      map[string]struct {
		Hits struct {
			Hits []esHit `json:"hits"`
		} `json:"hits"`
	} `json:"inner_hits"`
}

// Shape turns the Elasticsearch answer of a plan's search body (Bodies.Search) into the API response (Took is
// left for the caller, who measures it).
func Shape(plan Shaping, raw []byte) (Response, error) {
	var res esResponse
	if err := json.Unmarshal(raw, &res); err != nil {
		return Response{}, fmt.Errorf("decoding the search answer: %w", err)
	}
	out := Response{
		Hits:         make([]Hit, 0, len(res.Hits.Hits)),
		Total:        res.Hits.Total.Value,
		Offset:       plan.Offset,
		Limit:        plan.Limit,
		Facets:       make(map[string][]FacetValue, len(plan.Facets)),
		IgnoredWords: append([]string{}, plan.IgnoredWords...),
	}
	shape := plan.hitShaper()
	for _, h := range res.Hits.Hits {
		hits, err := plan.hitsOf(h, shape)
		if err != nil {
			return Response{}, err
		}
		out.Hits = append(out.Hits, hits...)
	}
	if err := plan.shapeAggs(res.Aggregations, &out); err != nil {
		return Response{}, err
	}
	return out, nil
}

// hitShaper shapes one hit of the answer, with its highlights, snippets and ranking.
func (p Shaping) hitShaper() func(esHit) (Hit, error) {
	return func(h esHit) (Hit, error) {
		hit, err := shapeHit(h, p.highlight)
		if err == nil && p.explain != nil {
			hit.Ranking = p.explain.ranking(h.Sort, h.MatchedQueries)
			if p.explain.semantic != nil {
				hit.Ranking.SemanticSimilarity, err = p.explain.semantic.similarityOf(&hit)
			}
		}
		return hit, err
	}
}

// hitsOf is the hits an answer's hit stands for: itself, or its group's with distinct.
func (p Shaping) hitsOf(h esHit, shape func(esHit) (Hit, error)) ([]Hit, error) {
	if p.distinct == nil {
		hit, err := shape(h)
		return []Hit{hit}, err
	}
	return p.distinct.expand(h, shape)
}

// shapeAggs reads the facets, their stats and the number of groups.
func (p Shaping) shapeAggs(aggs map[string]json.RawMessage, out *Response) error {
	if err := shapeFacets(p.facets, aggs, out); err != nil {
		return err
	}
	if p.distinct == nil || len(aggs[groupsAgg]) == 0 {
		return nil
	}
	total, err := p.distinct.total(aggs[groupsAgg])
	out.Total = total
	return err
}

// shapeHit strips the version field (defence in depth: the query excludes it already)
// and adds the highlights and snippets.
func shapeHit(eh esHit, h *highlightPlan) (Hit, error) {
	id, src := eh.ID, eh.Source
	hit := Hit{ObjectID: id, Record: src}
	if h != nil {
		hit.Snippets = h.snippetsOf(eh.Highlight)
	}
	if len(src) == 0 {
		hit.Record = json.RawMessage(`{}`)
		return hit, nil
	}
	needFields := len(eh.Highlight) > 0 || bytes.Contains(src, []byte(`"`+indexmapping.VersionField+`"`))
	if !needFields {
		return hit, nil
	}
	var record map[string]any
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber() // keeps large integers exact when the record is re-encoded
	if err := dec.Decode(&record); err != nil {
		return Hit{}, fmt.Errorf("decoding hit %q: %w", id, err)
	}
	if _, ok := record[indexmapping.VersionField]; ok {
		delete(record, indexmapping.VersionField)
		clean, err := json.Marshal(record)
		if err != nil {
			return Hit{}, err
		}
		hit.Record = clean
	}
	if h != nil {
		if marked := h.highlights(eh.Highlight, record); len(marked) > 0 {
			hit.Highlights = marked
		}
	}
	return hit, nil
}

// facetValue is the bucket key as the record holds it: booleans and dates come back
// from Elasticsearch as numbers with a key_as_string, which is what records contain.
func facetValue(key json.RawMessage, asString *string) any {
	if asString != nil {
		switch *asString {
		case "true":
			return true
		case "false":
			return false
		}
		return *asString
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(key))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return string(key)
	}
	return v
}
