package searcher

import (
	"slices"
	"sort"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"

	"github.com/aislehq/aisle/internal/engine/dsl"
	"github.com/aislehq/aisle/internal/engine/mapper"
	"github.com/aislehq/aisle/internal/engine/store"
	"github.com/aislehq/aisle/internal/engine/vectors"
)

// QueryContext builds the query parser's view of a set of indices: a field's type is taken
// from the first index that maps it (ES would resolve per shard; our indices of one search
// share mappings in practice, and unmapped fields match nothing, as in ES).
func QueryContext(indices []*store.Index) *dsl.Context {
	leaves := make([]map[string]*mapper.Leaf, len(indices))
	for i, ix := range indices {
		leaves[i] = ix.Mapping().Leaves()
	}
	c := &dsl.Context{MaxIDs: maxWindow(indices), MaxTerms: maxTerms(indices)}
	if len(indices) > 0 {
		c.Index = indices[0].Name
	}
	c.Leaf = func(p string) *mapper.Leaf { return leafAcross(leaves, p) }
	c.Leaves = func() []string { return leafPaths(leaves) }
	c.Analyze = func(esName, text string) []string { return analyze(indices, esName, text) }
	c.AnalyzePositions = func(esName, text string) [][]string { return analyzePositions(indices, esName, text) }
	c.PrefixTerms = func(field, prefix string, max int) []string { return prefixTerms(indices, field, prefix, max) }
	c.Corpus = corpus{indices: indices}
	c.Vector = func(p string) (vectors.Options, bool, bool) { return vectorAcross(indices, p) }
	return c
}

// vectorAcross is the dense_vector field at path of the first index that maps it.
func vectorAcross(indices []*store.Index, path string) (o vectors.Options, found, isVector bool) {
	for _, ix := range indices {
		if f := mapper.FieldAt(ix.Mapping(), path); f != nil {
			if f.Type != mapper.DenseVector {
				return o, true, false
			}
			return mapper.VectorOptions(f), true, true
		}
	}
	return o, false, false
}

// maxTerms is the lowest index.max_terms_count of the indices.
func maxTerms(indices []*store.Index) int {
	low := 0
	for _, ix := range indices {
		if n := ix.Settings().Int("index.max_terms_count", 65536); low == 0 || n < low {
			low = n
		}
	}
	return low
}

// leafPaths lists the leaf paths mapped in any of the indices, sorted.
func leafPaths(leaves []map[string]*mapper.Leaf) []string {
	set := map[string]bool{}
	for _, l := range leaves {
		for p := range l {
			set[p] = true
		}
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// tokens are the named analyzer's of the first index over text.
func tokens(indices []*store.Index, esName, text string) analysis.TokenStream {
	if len(indices) == 0 {
		return nil
	}
	ix := indices[0]
	return ix.Analyzer(mapper.BleveAnalyzer(esName, ix.Analysis())).Analyze([]byte(text))
}

// analyze runs the named analyzer of the first index over text.
func analyze(indices []*store.Index, esName, text string) []string {
	toks := tokens(indices, esName, text)
	out := make([]string, 0, len(toks))
	for _, t := range toks {
		out = append(out, string(t.Term))
	}
	return out
}

// analyzePositions runs the named analyzer of the first index over text and groups the
// terms by position, from the first token's.
func analyzePositions(indices []*store.Index, esName, text string) [][]string {
	toks := tokens(indices, esName, text)
	if len(toks) == 0 {
		return nil
	}
	first, last := toks[0].Position, toks[0].Position
	for _, t := range toks {
		first, last = min(first, t.Position), max(last, t.Position)
	}
	out := make([][]string, last-first+1)
	for _, t := range toks {
		if at := &out[t.Position-first]; !slices.Contains(*at, string(t.Term)) {
			*at = append(*at, string(t.Term))
		}
	}
	return out
}

// prefixTerms returns up to max distinct terms of field starting with prefix, index by
// index in dictionary order.
func prefixTerms(indices []*store.Index, field, prefix string, max int) []string {
	set := map[string]bool{}
	var out []string
	for _, ix := range indices {
		d, err := ix.Bleve().FieldDictPrefix(field, []byte(prefix))
		if err != nil {
			continue
		}
		for len(out) < max {
			e, err := d.Next()
			if err != nil || e == nil {
				break
			}
			if !set[e.Term] {
				set[e.Term] = true
				out = append(out, e.Term)
			}
		}
		_ = d.Close()
	}
	return out
}

// Searchable returns one bleve index over all the given indices.
func Searchable(indices []*store.Index) bleve.Index {
	if len(indices) == 1 {
		return indices[0].Bleve()
	}
	bs := make([]bleve.Index, len(indices))
	for i, ix := range indices {
		bs[i] = ix.Bleve()
	}
	return bleve.NewIndexAlias(bs...)
}

// leafAcross returns the first index's leaf for a path, widened to double when another
// index maps the path as a floating-point number while the first maps a whole-number type:
// ES then reduces terms keys and sort values as doubles.
func leafAcross(leaves []map[string]*mapper.Leaf, p string) *mapper.Leaf {
	var first *mapper.Leaf
	for _, l := range leaves {
		f := l[p]
		if f == nil {
			continue
		}
		if first == nil {
			first = f
			continue
		}
		if first.ExistsFromTerms() != f.ExistsFromTerms() {
			mixed := *first
			mixed.ExistsMixed = true
			first = &mixed
		}
		if mapper.Integral(first.Type) && mapper.Numeric(f.Type) && !mapper.Integral(f.Type) {
			widened := *first
			widened.Type = "double"
			return &widened
		}
	}
	return first
}
