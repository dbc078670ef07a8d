// Package mappertest builds analyzed documents for tests and benchmarks of what a refresh
// does with them (building segments), without a store.
package mappertest

import (
	"encoding/json"
	"fmt"

	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/mapper"
)

// Builder returns a document builder for mapping (the JSON of a mapping's properties
// object level: {"properties":{...}}), with the built-in analyzers.
func Builder(mapping json.RawMessage) (*mapper.Builder, error) {
	m, err := mapper.Parse(mapping)
	if err != nil {
		return nil, err
	}
	im, err := mapper.BuildIndexMapping(nil)
	if err != nil {
		return nil, err
	}
	return &mapper.Builder{Mapping: m, Analyzer: im.AnalyzerNamed}, nil
}

// Analyzed builds document id from source and analyzes it as a bulk and a refresh do.
func Analyzed(b *mapper.Builder, id int, source any) (index.Document, error) {
	d, err := Built(b, id, source)
	if err != nil {
		return nil, err
	}
	Analyze(d)
	return d, nil
}

// Built builds document id from source as a bulk does, with its _id field.
func Built(b *mapper.Builder, id int, source any) (index.Document, error) {
	raw, err := json.Marshal(source)
	if err != nil {
		return nil, err
	}
	d, _, err := b.Build(fmt.Sprint(id), raw)
	if err != nil {
		return nil, err
	}
	d.AddIDField()
	return d, nil
}

// Analyze analyzes every indexed field of d, as a refresh does before it builds a
// segment.
func Analyze(d index.Document) {
	d.VisitFields(func(f index.Field) {
		if f.Options().IsIndexed() {
			f.Analyze()
		}
	})
}
