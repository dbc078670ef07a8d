package dsl

import (
	"errors"

	"github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"
)

// Tap passes on a searcher's matches, calling each for every one of them and end once
// after the last, or on Close if the search stops before (bleve closes the searcher
// before its reader, so end may still read the index). Aggregations and collapse see a
// search's matches this way, in the pass that finds them.
func Tap(s search.Searcher, each func(*search.DocumentMatch) error, end func() error) search.Searcher {
	return &tapSearcher{Searcher: s, each: each, end: end}
}

type tapSearcher struct {
	search.Searcher
	each  func(*search.DocumentMatch) error
	end   func() error
	ended bool
}

func (t *tapSearcher) Next(ctx *search.SearchContext) (*search.DocumentMatch, error) {
	d, err := t.Searcher.Next(ctx)
	return d, t.feed(d, err)
}

func (t *tapSearcher) Advance(ctx *search.SearchContext, id index.IndexInternalID) (*search.DocumentMatch, error) {
	d, err := t.Searcher.Advance(ctx, id)
	return d, t.feed(d, err)
}

func (t *tapSearcher) feed(d *search.DocumentMatch, err error) error {
	switch {
	case err != nil:
		return err
	case d == nil:
		return t.finish()
	}
	return t.each(d)
}

func (t *tapSearcher) finish() error {
	if t.ended {
		return nil
	}
	t.ended = true
	return t.end()
}

func (t *tapSearcher) Close() error { return errors.Join(t.finish(), t.Searcher.Close()) }
