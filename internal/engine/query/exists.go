package query

import (
	"fmt"
	"strings"

	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapping"
)

func parseExists(c *Context, body any) (bq.Query, error) {
	m, err := asObject("exists", body)
	if err != nil {
		return nil, err
	}
	if err := checkKeys("exists", m, "field"); err != nil {
		return nil, err
	}
	field, ok := m["field"].(string)
	if !ok {
		return nil, eserr.Parsing("[exists] must be provided with a [field]")
	}
	switch field {
	case "_id", "_index":
		// Every document has these metadata fields, so ES rewrites the query to match_all.
		return applyBoost(bleve.NewMatchAllQuery(), m)
	case "_source":
		return nil, c.shardErr("The _source field is not searchable")
	}
	q := bleve.NewTermQuery(field)
	q.SetField(mapping.FieldNames)
	if strings.Contains(field, "*") {
		var qs []bq.Query
		for _, p := range c.Leaves() {
			if ok, _ := pathMatch(field, p); ok {
				t := bleve.NewTermQuery(p)
				t.SetField(mapping.FieldNames)
				qs = append(qs, t)
			}
		}
		if len(qs) == 0 {
			return bleve.NewMatchNoneQuery(), nil
		}
		return applyBoost(bleve.NewDisjunctionQuery(qs...), m)
	}
	return applyBoost(q, m)
}

func parseIDs(c *Context, body any) (bq.Query, error) {
	m, err := asObject("ids", body)
	if err != nil {
		return nil, err
	}
	if err := checkKeys("ids", m, "values"); err != nil {
		return nil, err
	}
	var ids []string
	for _, v := range list(m["values"]) {
		ids = append(ids, fmt.Sprint(v))
	}
	if len(ids) == 0 {
		return bleve.NewMatchNoneQuery(), nil
	}
	if c.MaxIDs > 0 && len(ids) > c.MaxIDs {
		return nil, eserr.SearchPhase(eserr.New(400, "query_shard_exception",
			"failed to create query: Too many ids specified, allowed max result window is [%d]", c.MaxIDs).With("index", c.Index))
	}
	return applyBoost(bleve.NewDocIDQuery(ids), m)
}
