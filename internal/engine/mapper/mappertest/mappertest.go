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

// Analyzed builds document id from source and analyzes it as a bulk and a refresh do:
// the _id field added, every indexed field analyzed.
func Analyzed(b *mapper.Builder, id int, source any) (index.Document, error) {
	raw, err := json.Marshal(source)
	if err != nil {
		return nil, err
	}
	d, _, err := b.Build(fmt.Sprint(id), raw)
	if err != nil {
		return nil, err
	}
	d.AddIDField()
	d.VisitFields(func(f index.Field) {
		if f.Options().IsIndexed() {
			f.Analyze()
		}
	})
	return d, nil
}
