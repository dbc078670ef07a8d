package searcher

import (
	bsearch "github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/columns"
	"github.com/aislehq/aisle/internal/engine/docsort"
	"github.com/aislehq/aisle/internal/engine/loop"
	"github.com/aislehq/aisle/internal/engine/mapper"
)

// loopSorts returns the docsort clauses of a search's sort (bleve's, with the type of
// each value) when the loop ranks hits by it exactly as bleve's collector does: by
// _score and by fields whose columns hold the terms bleve reads from doc values
// (numbers, dates, keywords and booleans, indexed with doc values, or unmapped with
// such an unmapped_type). _doc and _id sort by the document's id in bleve, which the
// loop does not read; ok is false for them and for any other clause.
func loopSorts(order bsearch.SortOrder, types []string, leafOf func(string) *mapper.Leaf) (specs []docsort.Spec, ok bool) {
	specs = make([]docsort.Spec, len(order))
	for i, o := range order {
		switch s := o.(type) {
		case *bsearch.SortScore:
			specs[i] = docsort.Spec{Field: "_score", Desc: s.Desc}
		case *bsearch.SortField:
			if !columnSortable(types[i], leafOf(s.Field)) {
				return nil, false
			}
			specs[i] = docsort.Spec{Field: s.Field, Desc: s.Desc, UnmappedType: types[i],
				MissingFirst: s.Missing == bsearch.SortFieldMissingFirst}
		default:
			return nil, false
		}
	}
	return specs, true
}

// columnSortable reports whether a field of type t (l its mapping, nil when unmapped)
// sorts from its column as from bleve's doc values: both hold the field's indexed terms.
func columnSortable(t string, l *mapper.Leaf) bool {
	if l != nil && (!l.Indexed || !l.DocValues) {
		return false
	}
	return t == "keyword" || t == "boolean" || t == "date" || mapper.Numeric(t)
}

// bleveMissing is the term bleve's collector sorts a document without the field by, and
// renders as its sort value: above every term when it sorts last ascending or first
// descending, below them otherwise.
func bleveMissing(sp docsort.Spec) string {
	if sp.Desc == sp.MissingFirst {
		return bsearch.HighTerm
	}
	return bsearch.LowTerm
}

// sortTermsAsBleve reports whether bleve's collector ranks the documents of specs'
// keyword clauses over v as docsort does, missing values aside: it ranks a document
// without a value by a term of its own (bleveMissing), which an empty term falls below
// and U+10FFFF repeated passes, while docsort ranks it apart from every term.
func (p *plan) sortTermsAsBleve(v *columns.View, specs []docsort.Spec) (bool, error) {
	for _, sp := range specs {
		if l := p.qc.Leaf(sp.Field); l == nil || l.Type != "keyword" {
			continue
		}
		cols, err := v.Field(sp.Field, "")
		if err != nil {
			return false, err
		}
		for _, c := range cols {
			if !termsBetweenMissing(c.Terms) {
				return false, nil
			}
		}
	}
	return true, nil
}

// termsBetweenMissing reports whether sorted terms all lie strictly between the terms
// bleve ranks missing values by.
func termsBetweenMissing(terms [][]byte) bool {
	return len(terms) == 0 ||
		(string(terms[0]) > bsearch.LowTerm && string(terms[len(terms)-1]) < bsearch.HighTerm)
}

// byScore ranks the loop's hits by score, as bleve does without a sort.
type byScore struct{ top *loop.TopK }

func (t byScore) add(_ int, _ uint32, doc uint64, score float64) { t.top.Add(score, doc) }

func (t byScore) hits(from int) bsearch.DocumentMatchCollection {
	best := t.top.Best()
	out := make(bsearch.DocumentMatchCollection, 0, max(len(best)-from, 0))
	for _, h := range best[min(from, len(best)):] {
		out = append(out, &bsearch.DocumentMatch{Score: h.Score, IndexInternalID: index.NewIndexInternalID(nil, h.Doc)})
	}
	return out
}

// bySort ranks the loop's hits by the search's sort, reading keys from columns.
type bySort struct {
	top    *loop.KeyedTopK
	sorter *docsort.Sorter
}

func (t bySort) add(seg int, local uint32, doc uint64, score float64) {
	t.top.Add(seg, local, doc, score)
}

// hits gives the window's hits their sort values as bleve decodes them (DecodedSort),
// which renderHit renders.
func (t bySort) hits(from int) bsearch.DocumentMatchCollection {
	best := t.top.Best()
	out := make(bsearch.DocumentMatchCollection, 0, max(len(best)-from, 0))
	for _, h := range best[min(from, len(best)):] {
		out = append(out, &bsearch.DocumentMatch{Score: h.Score, IndexInternalID: index.NewIndexInternalID(nil, h.Doc),
			DecodedSort: t.decoded(h.Key)})
	}
	return out
}

func (t bySort) decoded(key []docsort.Val) []string {
	out := t.sorter.Decoded(key)
	for i, sp := range t.sorter.Specs() {
		if key[i].Missing {
			out[i] = bleveMissing(sp)
		}
	}
	return out
}
