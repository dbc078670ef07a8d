package merch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/esread"
)

// Paging of GET /rules.
const (
	DefaultListLimit = 20
	MaxListLimit     = 1_000
	// MaxListWindow bounds offset + limit: an index holds no more rules.
	MaxListWindow = MaxRules
	// MaxListQueryBytes bounds the query parameter.
	MaxListQueryBytes = 512
)

// ListQuery is GET /rules?query=&offset=&limit=: the rules whose ID, description or
// patterns hold the query's words (the last one as a prefix), by ID.
type ListQuery struct {
	Query         string
	Offset, Limit int
}

// Page is the answer of GET /rules.
type Page struct {
	Rules  []Rule `json:"rules"`
	Total  int64  `json:"total"`
	Offset int    `json:"offset"`
	Limit  int    `json:"limit"`
}

// ParseList reads GET /rules' parameters: ErrBadParameter names a bad one.
func ParseList(query, offset, limit string) (ListQuery, error) {
	q := ListQuery{Query: query, Limit: DefaultListLimit}
	if len(query) > MaxListQueryBytes || !utf8.ValidString(query) {
		return ListQuery{}, fmt.Errorf("%w: query must be valid UTF-8 of at most %d bytes", ErrBadParameter, MaxListQueryBytes)
	}
	var err error
	if q.Offset, err = intParam(offset, 0); err != nil || q.Offset < 0 {
		return ListQuery{}, fmt.Errorf("%w: offset must be an integer from 0", ErrBadParameter)
	}
	if q.Limit, err = intParam(limit, DefaultListLimit); err != nil || q.Limit < 1 || q.Limit > MaxListLimit {
		return ListQuery{}, fmt.Errorf("%w: limit must be an integer from 1 to %d", ErrBadParameter, MaxListLimit)
	}
	if q.Offset > MaxListWindow-q.Limit {
		return ListQuery{}, fmt.Errorf("%w: offset + limit must be at most %d", ErrBadParameter, MaxListWindow)
	}
	return q, nil
}

func intParam(s string, def int) (int, error) {
	if s == "" {
		return def, nil
	}
	return strconv.Atoi(s)
}

// Get reads rule id; ErrNotFound when there is none.
func (s *Service) Get(ctx context.Context, names esnames.Index, id string) (Rule, error) {
	p, err := s.pointerOf(ctx, names)
	if err != nil {
		return Rule{}, err
	}
	if !p.v.Found {
		return Rule{}, ErrNotFound
	}
	res, err := s.es.Get(names.Rules(), docID(p.doc.Generation, id)).Realtime(true).SourceIncludes_("rule").Do(ctx)
	if err := es.Classify(err); errors.Is(err, es.ErrNotFound) {
		return Rule{}, ErrNotFound
	} else if err != nil {
		return Rule{}, fmt.Errorf("reading rule %s: %w", id, err)
	}
	if !res.Found {
		return Rule{}, ErrNotFound
	}
	var doc ruleDoc
	if err := json.Unmarshal(res.Source_, &doc); err != nil {
		return Rule{}, fmt.Errorf("decoding rule %s: %w", id, err)
	}
	return doc.Rule, nil
}

// List answers GET /rules from the current generation.
func (s *Service) List(ctx context.Context, names esnames.Index, q ListQuery) (Page, error) {
	page := Page{Rules: []Rule{}, Offset: q.Offset, Limit: q.Limit}
	p, err := s.pointerOf(ctx, names)
	if err != nil || !p.v.Found {
		return page, err
	}
	query := map[string]any{"bool": map[string]any{"filter": []any{generationQuery(p.doc.Generation)}}}
	if q.Query != "" {
		query["bool"].(map[string]any)["must"] = []any{map[string]any{"match_bool_prefix": map[string]any{
			"text": map[string]any{"query": q.Query, "operator": "and"}}}}
	}
	ans, err := s.search(ctx, names, map[string]any{"query": query, "sort": []any{map[string]any{"ruleId": "asc"}},
		"from": q.Offset, "size": q.Limit, "track_total_hits": true, "_source": []string{"rule"}})
	if err != nil {
		return page, err
	}
	page.Total = ans.Hits.Total.Value
	for _, h := range ans.Hits.Hits {
		page.Rules = append(page.Rules, h.Source.Rule)
	}
	return page, nil
}

// searchAnswer is the part of a search of the rules index read here.
type searchAnswer struct {
	Hits struct {
		Total struct {
			Value int64 `json:"value"`
		} `json:"total"`
		Hits []struct {
			Source ruleDoc `json:"_source"`
			Sort   []any   `json:"sort"`
		} `json:"hits"`
	} `json:"hits"`
}

func (s *Service) search(ctx context.Context, names esnames.Index, body map[string]any) (searchAnswer, error) {
	raw, err := esread.Search(ctx, s.es, names.Rules(), body)
	if err != nil {
		return searchAnswer{}, err
	}
	var ans searchAnswer
	if err := json.Unmarshal(raw, &ans); err != nil {
		return searchAnswer{}, fmt.Errorf("%w: decoding rules of %s: %w", es.ErrUnavailable, names.Stem(), err)
	}
	return ans, nil
}

// loadPage is the number of rules one search of a load reads.
const loadPage = 1_000

// load reads every rule of the current generation with its terms, and the pointer they
// belong to. A write that moved the pointer meanwhile makes it read again, so the rules
// are one generation's, whole.
func (s *Service) load(ctx context.Context, names esnames.Index) (pointer, []ruleDoc, error) {
	for attempt := 0; attempt < maxSettle; attempt++ {
		p, err := s.pointerOf(ctx, names)
		if err != nil || !p.v.Found {
			return pointer{}, nil, err
		}
		docs, err := s.loadGeneration(ctx, names, p.doc.Generation)
		if err != nil {
			return pointer{}, nil, err
		}
		after, err := s.pointerOf(ctx, names)
		if err != nil {
			return pointer{}, nil, err
		}
		if after.v.Seq == p.v.Seq && after.v.Term == p.v.Term {
			return p.doc, docs, nil
		}
	}
	return pointer{}, nil, fmt.Errorf("%w: the rules of %s kept changing", es.ErrUnavailable, names.Stem())
}

func (s *Service) loadGeneration(ctx context.Context, names esnames.Index, gen string) ([]ruleDoc, error) {
	var out []ruleDoc
	var after []any
	for {
		body := map[string]any{"query": generationQuery(gen), "sort": []any{map[string]any{"ruleId": "asc"}},
			"size": loadPage, "track_total_hits": false, "_source": []string{"rule", "terms"}}
		if after != nil {
			body["search_after"] = after
		}
		ans, err := s.search(ctx, names, body)
		if err != nil {
			return nil, err
		}
		for _, h := range ans.Hits.Hits {
			out = append(out, h.Source)
			after = h.Sort
		}
		if len(ans.Hits.Hits) < loadPage {
			return out, nil
		}
	}
}
