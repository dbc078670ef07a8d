package recommend

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/aislehq/aisle/internal/esread"
	"github.com/aislehq/aisle/internal/relevance"
	"github.com/aislehq/aisle/internal/searchquery"
)

// more_like_this's term selection for product records: short texts whose words occur
// once each (Elasticsearch's defaults, 2 and 5, suit long documents), and a word held by
// the product alone matches nothing else.
const (
	similarMinTermFreq   = 1
	similarMinDocFreq    = 2
	similarMaxQueryTerms = 25
)

// similarPlan is what the similar list's query is made of.
type similarPlan struct {
	alias, id string
	// fields are the searchable fields (nil: every text field).
	fields []string
	// shared are terms queries of the facet values the product holds; within selects
	// its similarWithin values (nil when unset or when it holds none).
	shared  []any
	within  any
	filters []any
	source  obj
	limit   int
}

// similarQuery asks for the products sharing words of the product's searchable fields
// (more_like_this on the product itself) or its facet values, within its similarWithin
// values and the request's filters, the product itself left out, most similar first.
func similarQuery(p similarPlan) obj {
	mlt := obj{"like": []any{obj{"_index": p.alias, "_id": p.id}}, "min_term_freq": similarMinTermFreq,
		"min_doc_freq": similarMinDocFreq, "max_query_terms": similarMaxQueryTerms}
	if p.fields != nil {
		mlt["fields"] = p.fields
	}
	filter := slices.Clone(p.filters)
	if p.within != nil {
		filter = append([]any{p.within}, filter...)
	}
	q := boolQuery(filter, []any{obj{"ids": obj{"values": []string{p.id}}}})
	b := q["bool"].(obj)
	b["should"], b["minimum_should_match"] = append([]any{obj{"more_like_this": mlt}}, p.shared...), 1
	return obj{"size": p.limit, "_source": p.source, "track_total_hits": false, "query": q}
}

// planSimilar reads the product's facet values into the plan.
func planSimilar(req Request, v catalogView, rec map[string]any) similarPlan {
	within := relevance.RecommendationsOf(req.Settings).SimilarWithin
	p := similarPlan{alias: v.alias, id: req.ObjectID, filters: v.filters, source: v.source, limit: req.Limit}
	for _, f := range req.Settings.SearchableFields {
		p.fields = append(p.fields, string(f.Path))
	}
	for _, f := range req.Settings.FacetFields {
		path := string(f)
		values := searchquery.Values(rec, path)
		if field, ok := v.schema[path]; !ok || !field.HasValues() || len(values) == 0 {
			continue
		}
		if path == within {
			p.within = valuesQuery(v.schema, path, values)
			continue
		}
		p.shared = append(p.shared, valuesQuery(v.schema, path, values))
	}
	return p
}

// Similar lists the products like req.ObjectID; an unknown product has an empty list.
func (s *Service) Similar(ctx context.Context, req Request) (List, error) {
	list := List{ObjectID: req.ObjectID, Hits: []Hit{}}
	v, rec, found, err := s.product(ctx, req)
	if err != nil || !found {
		return list, err
	}
	raw, err := esread.Search(ctx, s.es, v.alias, similarQuery(planSimilar(req, v, rec)))
	if err != nil {
		return List{}, err
	}
	var ans searchAnswer
	if err := json.Unmarshal(raw, &ans); err != nil {
		return List{}, fmt.Errorf("decoding similar products: %w", err)
	}
	for _, h := range ans.Hits.Hits {
		hit := Hit{ObjectID: h.ID, Record: h.Source, Reason: ReasonContent}
		if h.Score != nil {
			hit.Score = *h.Score
		}
		list.Hits = append(list.Hits, hit)
	}
	return list, nil
}
