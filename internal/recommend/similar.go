package recommend

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"

	"github.com/aislehq/aisle/internal/esread"
	"github.com/aislehq/aisle/internal/indexmapping"
	"github.com/aislehq/aisle/internal/relevance"
	"github.com/aislehq/aisle/internal/searchquery"
)

// similarCandidates is how many of its graph's nearest vectors a similar list's kNN
// search compares, per product listed: the engine's and Elasticsearch's default
// (1.5 × k) loses recall at a k as small as a list's.
const (
	similarCandidatesPerHit = 10
	minSimilarCandidates    = 100
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
	// vector is the product's own vector (nil: the index has no embedder, or the
	// product no vector yet), searched in the embedder's field.
	vector *productVector
}

// productVector is a product's vector of one embedder.
type productVector struct {
	field  string
	values []float64
}

// similarQuery is the kNN query of the product's vector when it has one, else the
// query of its words and facet values.
func similarQuery(p similarPlan) obj {
	if p.vector != nil {
		return similarKNNQuery(p)
	}
	return similarWordsQuery(p)
}

// similarKNNQuery asks for the products whose vectors are nearest the product's, within
// its similarWithin values and the request's filters (which pre-filter the kNN search,
// so that its k are products the list may show), the product itself left out.
func similarKNNQuery(p similarPlan) obj {
	filter := slices.Clone(p.filters)
	if p.within != nil {
		filter = append([]any{p.within}, filter...)
	}
	knn := obj{"field": p.vector.field, "query_vector": p.vector.values, "k": p.limit,
		"num_candidates": max(minSimilarCandidates, similarCandidatesPerHit*p.limit),
		"filter":         []any{boolQuery(filter, []any{obj{"ids": obj{"values": []string{p.id}}}})}}
	return obj{"size": p.limit, "_source": p.source, "track_total_hits": false, "knn": knn}
}

// similarWordsQuery asks for the products sharing words of the product's searchable fields
// (more_like_this on the product itself) or its facet values, within its similarWithin
// values and the request's filters, the product itself left out, most similar first.
func similarWordsQuery(p similarPlan) obj {
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
	p := similarPlan{alias: v.alias, id: req.ObjectID, filters: v.filters, source: v.source, limit: req.Limit,
		vector: vectorOf(req.Settings, rec)}
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

// vectorOf is the product's vector of the first embedder, by name, of which it holds
// one of the embedder's dimensions and not all zeros (a cosine needs a direction); nil
// when it holds none, as before an openAI embedder has embedded it.
func vectorOf(s searchv1alpha1.IndexSettings, rec map[string]any) *productVector {
	held, _ := rec[indexmapping.VectorsField].(map[string]any)
	es := indexmapping.Embedders(s)
	for _, name := range slices.Sorted(maps.Keys(es)) {
		raw, _ := held[name].([]any)
		if len(raw) != int(es[name].Dimensions) {
			continue
		}
		values := make([]float64, len(raw))
		nonZero := false
		for i, x := range raw {
			f, ok := x.(float64)
			if !ok {
				values = nil
				break
			}
			values[i], nonZero = f, nonZero || f != 0
		}
		if values != nil && nonZero {
			return &productVector{field: indexmapping.VectorPath(name), values: values}
		}
	}
	return nil
}
