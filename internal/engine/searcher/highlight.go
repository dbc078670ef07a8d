package searcher

import (
	"github.com/blevesearch/bleve/v2/analysis"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/highlight"
	"github.com/aislehq/aisle/internal/engine/mapper"
	"github.com/aislehq/aisle/internal/engine/store"
)

// defaultMaxAnalyzedOffset is ES's index.highlight.max_analyzed_offset.
const defaultMaxAnalyzedOffset = 1000000

// highlighters builds the highlighter of each index a search's hits come from, on the
// first hit that needs it: a search without highlight builds none.
type highlighters struct {
	r     *Request
	built map[string]*highlight.Highlighter
}

func newHighlighters(r *Request) *highlighters {
	if r.Highlight == nil {
		return nil
	}
	return &highlighters{r: r, built: map[string]*highlight.Highlighter{}}
}

// add puts the highlight of hit number n, whose document doc comes from ix, into hit.
func (hs *highlighters) add(hit map[string]any, ix *store.Index, doc *store.Doc, n int) error {
	if hs == nil || ix == nil || doc == nil {
		return nil
	}
	h := hs.built[ix.Name]
	if h == nil {
		h = highlight.New(hs.r.Highlight, hs.r.Query, highlightIndex(ix))
		hs.built[ix.Name] = h
	}
	frags, err := h.Hit(doc.Source, n)
	if err != nil {
		return eserr.SearchPhase(eserr.As(err))
	}
	if frags != nil {
		hit["highlight"] = frags
	}
	return nil
}

// checkHighlightQueries parses each highlight_query as the search's query is parsed, so
// that a bad one is refused as ES refuses it.
func checkHighlightQueries(indices []*store.Index, r *Request) error {
	if r.Highlight == nil {
		return nil
	}
	for _, q := range r.Highlight.Queries() {
		if _, _, err := BuildQuery(indices, q); err != nil {
			return err
		}
	}
	return nil
}

func highlightIndex(ix *store.Index) highlight.Index {
	leaves := ix.Mapping().Leaves()
	return highlight.Index{
		Name:   ix.Name,
		Leaf:   func(p string) *mapper.Leaf { return leaves[p] },
		Leaves: func() []string { return leafPaths([]map[string]*mapper.Leaf{leaves}) },
		Analyzer: func(name string) analysis.Analyzer {
			return ix.Analyzer(mapper.BleveAnalyzer(name, ix.Analysis()))
		},
		MaxAnalyzedOffset: ix.Settings().Int("index.highlight.max_analyzed_offset", defaultMaxAnalyzedOffset),
	}
}
