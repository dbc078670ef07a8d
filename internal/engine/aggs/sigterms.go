package aggs

import (
	"sort"

	"github.com/blevesearch/bleve/v2/numeric"
	"github.com/blevesearch/bleve/v2/search"

	"github.com/aislehq/aisle/internal/engine/columns"
	"github.com/aislehq/aisle/internal/engine/eserr"
)

// sigTermsAgg collects a significant_terms aggregation. The foreground is counted as a
// terms aggregation counts (each bucket of the parent is a subset, its documents the
// subset size); the background is the shard's: without background_filter every
// document, deleted ones included, with Lucene's docFreq per term and maxDoc as its size
// (as Elasticsearch's SignificanceLookup reads them), else the live documents matching
// the filter, counted once when the aggregator is made.
type sigTermsAgg struct {
	*termsAgg
	subset []int64 // documents collected per owner
	bg     background
}

// background is a shard's background: its size and, with a filter, the matching
// documents' term counts per segment and ordinal (nil: the columns' docFreq).
type background struct {
	size   int64
	counts [][]int64
}

func (sh *shard) newSigTerms(a *Agg, subs []aggregator) (aggregator, error) {
	t, err := sh.newTerms(a, subs)
	if err != nil {
		return nil, err
	}
	s := &sigTermsAgg{termsAgg: t.(*termsAgg), bg: background{size: int64(sh.view.MaxDoc())}}
	if a.Sig.background != nil {
		if s.bg, err = sh.filteredBackground(a, s.cols); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// filteredBackground counts the live documents matching the background filter, and
// their terms.
func (sh *shard) filteredBackground(a *Agg, cols []*columns.Column) (background, error) {
	bg := background{counts: make([][]int64, len(cols))}
	for i, col := range cols {
		bg.counts[i] = make([]int64, len(col.Terms))
	}
	s, err := a.Sig.background.Searcher(sh.ctx, sh.r, sh.m, search.SearcherOptions{Score: "none"})
	if err != nil {
		return bg, err
	}
	defer s.Close() //nolint:errcheck // a read-only searcher
	sctx := &search.SearchContext{DocumentMatchPool: search.NewDocumentMatchPool(s.DocumentMatchPoolSize(), 0), IndexReader: sh.r}
	var one [1]uint32
	hint := 0
	for {
		dm, err := s.Next(sctx)
		if err != nil || dm == nil {
			return bg, err
		}
		bg.size++
		seg, local := sh.view.Locate(dm.IndexInternalID, hint)
		hint = seg
		if cols != nil {
			for _, o := range cols[seg].Ords(local, &one) {
				bg.counts[seg][o]++
			}
		}
		sctx.DocumentMatchPool.Put(dm)
	}
}

func (s *sigTermsAgg) collect(d doc, owner int) error {
	s.subset = grow(s.subset, owner)
	s.subset[owner]++
	return s.termsAgg.collect(d, owner)
}

// result is owner's buckets with their background counts, less those under
// shard_min_doc_count.
func (s *sigTermsAgg) result(owner int) *partial {
	p := s.termsAgg.result(owner)
	if owner < len(s.subset) {
		p.docs = s.subset[owner]
	}
	p.superset = s.bg.size
	for k, b := range p.buckets {
		if b.count < int64(s.a.Sig.shardMinDocCount) {
			delete(p.buckets, k)
			continue
		}
		b.bg = s.bg.freq(s.cols, termBytes(s.a, b.v))
	}
	return p
}

// freq is how many background documents hold term.
func (bg background) freq(cols []*columns.Column, term []byte) int64 {
	var n int64
	for seg, col := range cols {
		o, ok := col.Ord(term)
		switch {
		case !ok:
		case bg.counts != nil:
			n += bg.counts[seg][o]
		default:
			n += col.DocFreq(o)
		}
	}
	return n
}

// termBytes is the indexed term of a bucket's value (the inverse of decodeTerm).
func termBytes(a *Agg, v value) []byte {
	switch a.Leaf.Type {
	case "keyword":
		return []byte(v.str)
	case "boolean":
		if v.num == 1 {
			return []byte("T")
		}
		return []byte("F")
	case "date":
		return numeric.MustNewPrefixCodedInt64(int64(v.num)*1e6, 0)
	}
	return numeric.MustNewPrefixCodedInt64(numeric.Float64ToInt64(v.num), 0)
}

// significant renders the reduced buckets: scored with the global subset and superset
// sizes, those scoring above 0 with min_doc_count documents, best first.
func (r renderer) significant(p *partial, a *Agg) (map[string]any, error) {
	out := map[string]any{"doc_count": p.docs, "bg_count": p.superset, "buckets": []any{}}
	if a.Leaf == nil {
		return out, nil
	}
	type scored struct {
		candidate
		score float64
	}
	var cands []scored
	for _, b := range p.buckets {
		score, err := a.Sig.heuristic.score(b.count, p.docs, b.bg, p.superset)
		if err != nil {
			return nil, err
		}
		v := b.v
		v.count = int(b.count)
		if score > 0 && v.count >= a.MinDocCount && a.accepts(v) {
			cands = append(cands, scored{candidate{v: v, b: b}, score})
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score > cands[j].score
		}
		return less(a, cands[i].v, cands[j].v)
	})
	buckets := make([]any, 0, min(len(cands), a.Size))
	for _, c := range cands[:min(len(cands), a.Size)] {
		b, err := r.termBucket(a, c.candidate)
		if err != nil {
			return nil, err
		}
		b["score"], b["bg_count"] = c.score, c.b.bg
		buckets = append(buckets, b)
	}
	out["buckets"] = buckets
	return out, nil
}

// sigPrefix is the typed_keys prefix of a significant_terms result.
func sigPrefix(a *Agg) string {
	switch {
	case a.Leaf == nil:
		return "umsigterms"
	case a.Leaf.Type == "keyword":
		return "sigsterms"
	}
	return "siglterms"
}

// checkSigField refuses what Elasticsearch's significant_terms cannot examine.
func (a *Agg) checkSigField(index string) error {
	if a.Type != "significant_terms" || a.Leaf == nil || a.Leaf.Type == "keyword" {
		return nil
	}
	if t := a.Leaf.Type; t == "double" || t == "float" || t == "half_float" || t == "scaled_float" {
		return eserr.SearchPhase(eserr.IllegalArgument("No support for examining floating point numerics").With("index", index))
	}
	return nil
}
