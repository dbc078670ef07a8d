package dsl

import (
	"fmt"
	"strings"

	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
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
	if !strings.Contains(field, "*") {
		return applyBoost(c.existsOne(field), m)
	}
	var qs []bq.Query
	for _, p := range c.Leaves() {
		if ok, _ := pathMatch(field, p); ok {
			qs = append(qs, c.existsOne(p))
		}
	}
	if len(qs) == 0 {
		return bleve.NewMatchNoneQuery(), nil
	}
	return applyBoost(bleve.NewDisjunctionQuery(qs...), m)
}

// existsOne is exists on one path. As in ES, exists on an object is exists on any field
// below it, so an empty object does not count.
func (c *Context) existsOne(path string) bq.Query {
	if l := c.Leaf(path); l != nil {
		return Exists(path, l)
	}
	var below []bq.Query
	for _, p := range c.Leaves() {
		if strings.HasPrefix(p, path+".") {
			below = append(below, Exists(p, c.Leaf(p)))
		}
	}
	if len(below) == 0 {
		return Exists(path, nil)
	}
	return bleve.NewDisjunctionQuery(below...)
}

// Exists matches the documents that have a value at path (l: its leaf, nil when the path
// is unmapped or an object): from the field's own terms when they tell, otherwise from
// _field_names, which lists the other fields (and objects) a document has.
func Exists(path string, l *mapper.Leaf) bq.Query {
	switch {
	case l != nil && l.ExistsMixed:
		return bleve.NewDisjunctionQuery(newExistsTerms(path), fieldNamesTerm(path))
	case l != nil && l.ExistsFromTerms():
		return newExistsTerms(path)
	}
	return fieldNamesTerm(path)
}

// fieldNamesTerm matches the documents whose _field_names list path.
func fieldNamesTerm(path string) bq.Query {
	q := bleve.NewTermQuery(path)
	q.SetField(mapper.FieldNames)
	return q
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
