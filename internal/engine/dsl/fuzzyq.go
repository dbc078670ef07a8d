package dsl

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/searcher"
	index "github.com/blevesearch/bleve_index_api"
	lev "github.com/blevesearch/vellum/levenshtein"

	"github.com/aislehq/aisle/internal/engine/scoring"
)

// fuzzyQuery is Lucene's FuzzyQuery with Elasticsearch's rewrite: the terms of the field
// within its edits of the query term (the first prefix characters unchanged), of which
// the max_expansions most similar, scored by its rewrite method.
type fuzzyQuery struct {
	boosted
	field, term string
	text        bool
	edits       int
	opts        fuzzyOpts
}

func newFuzzyQuery(field, term string, text bool, f fuzzyOpts) *fuzzyQuery {
	return &fuzzyQuery{boosted: unboosted(), field: field, term: term, text: text, edits: f.editsFor(term), opts: f}
}

// expansion is a term the fuzzy query matches, with its similarity to the query term.
type expansion struct {
	term  string
	boost float32
}

// expand lists the field's terms that match in the reader, best first as Lucene's
// TopTermsRewrite keeps them (similarity, then term order), then in term order.
func (q *fuzzyQuery) expand(r index.IndexReader) ([]expansion, error) {
	sim, err := q.similarity()
	if err != nil {
		return nil, err
	}
	var out []expansion
	err = q.candidates(r, func(term string, edits int) {
		if boost, ok := sim(term, edits); ok {
			out = append(out, expansion{term: term, boost: boost})
		}
	})
	if err != nil {
		return nil, err
	}
	if q.opts.size > 0 && len(out) > q.opts.size {
		sort.Slice(out, func(i, j int) bool {
			if out[i].boost != out[j].boost {
				return out[i].boost > out[j].boost
			}
			return out[i].term < out[j].term
		})
		out = out[:q.opts.size]
	}
	sort.Slice(out, func(i, j int) bool { return out[i].term < out[j].term })
	return out, nil
}

// candidates visits the terms bleve's Damerau-Levenshtein automaton accepts within the
// edits of the whole term, with their distance: every term within them of the part
// after the prefix (for a term with the same prefix the distances are equal), and more,
// which similarity sorts out.
func (q *fuzzyQuery) candidates(r index.IndexReader, visit func(term string, edits int)) error {
	if q.edits == 0 {
		visit(q.term, 0)
		return nil
	}
	fr, ok := r.(index.IndexReaderFuzzy)
	if !ok {
		return fmt.Errorf("fuzzy queries need a scorch index, got %T", r)
	}
	runes := []rune(q.term)
	prefix := string(runes[:min(q.opts.prefix, len(runes))])
	dict, err := fr.FieldDictFuzzy(q.field, q.term, q.edits, prefix)
	if err != nil {
		return err
	}
	return eachTerm(dict, func(e *index.DictEntry) { visit(e.Term, int(e.EditDistance)) })
}

// eachTerm visits the entries of a dictionary walk, and closes it.
func eachTerm(dict index.FieldDict, visit func(e *index.DictEntry)) error {
	for e, err := dict.Next(); e != nil || err != nil; e, err = dict.Next() {
		if err != nil {
			_ = dict.Close()
			return err
		}
		visit(e)
	}
	return dict.Close()
}

// similarity is FuzzyTermsEnum's boost of a term: 1 for the query term itself, else
// 1 - edits / the shorter length (in characters); ok is false beyond the edits or when
// the prefix differs. Without transpositions the edits the automaton counted (Damerau's)
// are counted again by a Levenshtein automaton of what follows the prefix.
func (q *fuzzyQuery) similarity() (func(term string, edits int) (float32, bool), error) {
	a := []rune(q.term)
	p := min(q.opts.prefix, len(a))
	var dfa *lev.DFA
	if q.edits > 0 && !q.opts.transpositions {
		var err error
		if dfa, err = levenshtein(string(a[p:]), q.edits, false); err != nil {
			return nil, err
		}
	}
	return func(term string, edits int) (float32, bool) {
		if term == q.term {
			return 1, true
		}
		b := []rune(term)
		if q.edits == 0 || len(b) < p || string(b[:p]) != string(a[:p]) {
			return 0, false
		}
		if dfa != nil {
			ok, d := dfa.MatchAndDistance(string(b[p:]))
			if !ok {
				return 0, false
			}
			edits = int(d)
		}
		return 1 - float32(edits)/float32(min(len(a), len(b))), edits <= q.edits
	}, nil
}

// levBuilders are vellum's Levenshtein automaton builders (bleve's), by edits and
// transpositions: a builder precomputes its tables, so each is made once.
var levBuilders = struct {
	sync.Mutex
	m map[[2]int]*lev.LevenshteinAutomatonBuilder
}{m: map[[2]int]*lev.LevenshteinAutomatonBuilder{}}

// levenshtein is the automaton of the terms within edits of s: Damerau's optimal string
// alignment with transpositions (a swap of two neighbours is one edit, as bleve's
// dictionary walk counts), else Levenshtein's.
func levenshtein(s string, edits int, transpositions bool) (*lev.DFA, error) {
	k := [2]int{edits, 0}
	if transpositions {
		k[1] = 1
	}
	levBuilders.Lock()
	b := levBuilders.m[k]
	if b == nil {
		var err error
		if b, err = lev.NewLevenshteinAutomatonBuilder(uint8(edits), transpositions); err != nil {
			levBuilders.Unlock()
			return nil, err
		}
		levBuilders.m[k] = b
	}
	levBuilders.Unlock()
	return b.BuildDfa(s, uint8(edits))
}

// Searcher implements bq.Query.
func (q *fuzzyQuery) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (search.Searcher, error) {
	return searcherOf(ctx, q, r, m, o, func() (search.Searcher, error) {
		terms, err := q.terms(r)
		if err != nil {
			return nil, err
		}
		return searcher.NewMultiTermSearcher(ctx, r, terms, q.field, 1, o, false)
	})
}

// terms are the terms the query matches in the reader (see expand).
func (q *fuzzyQuery) terms(r index.IndexReader) ([]string, error) {
	exps, err := q.expand(r)
	if err != nil {
		return nil, err
	}
	terms := make([]string, len(exps))
	for i, e := range exps {
		terms[i] = e.term
	}
	return terms, nil
}

func (q *fuzzyQuery) scorer(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions, boost float32) (search.Searcher, error) {
	b := q.times(boost)
	if q.opts.mode == rewriteConstant {
		s, err := q.Searcher(ctx, r, m, matchOnly(o))
		if err != nil {
			return nil, err
		}
		return scoring.NewConstant(s, b), nil
	}
	exps, err := q.expand(r)
	if err != nil {
		return nil, err
	}
	subs, err := q.termScorers(ctx, r, exps, b)
	if err != nil {
		return nil, err
	}
	if len(subs) == 0 {
		return searcher.NewMatchNoneSearcher(r)
	}
	return disjunction(subs, 1, scoring.Sum), nil
}

// termScorers scores each expansion as the rewrite method says.
func (q *fuzzyQuery) termScorers(ctx context.Context, r index.IndexReader, exps []expansion, boost float32) ([]search.Searcher, error) {
	ws, err := q.weighted(r, exps, boost)
	if err != nil {
		return nil, err
	}
	subs := make([]search.Searcher, 0, len(ws))
	for _, w := range ws {
		s, err := q.termScorer(ctx, r, w.t, w.st, w.boost)
		if err != nil {
			closeAll(subs)
			return nil, err
		}
		subs = append(subs, s)
	}
	return subs, nil
}

// weightedTerm is an expansion as its rewrite method scores it: its term, statistics and
// boost.
type weightedTerm struct {
	t     scoring.Term
	st    scoring.TermStats
	boost float32
}

// weighted are the expansions found in the reader, weighted under boost. Lucene
// truncates a negative similarity (more edits than a short term has characters) to 0.
func (q *fuzzyQuery) weighted(r index.IndexReader, exps []expansion, boost float32) ([]weightedTerm, error) {
	rd, err := scoring.ReaderOf(r)
	if err != nil {
		return nil, err
	}
	terms, stats, err := q.termStats(rd, exps)
	if err != nil {
		return nil, err
	}
	var out []weightedTerm
	for i, t := range terms {
		if stats[i].DocFreq > 0 {
			out = append(out, weightedTerm{t: t, st: stats[i], boost: max(exps[i].boost, 0) * boost})
		}
	}
	return out, nil
}

// termStats are the expansions' statistics; blended, each has the highest doc freq
// among them (Lucene's BlendedTermQuery).
func (q *fuzzyQuery) termStats(rd *scoring.Reader, exps []expansion) ([]scoring.Term, []scoring.TermStats, error) {
	terms := make([]scoring.Term, len(exps))
	stats := make([]scoring.TermStats, len(exps))
	var maxDF int64
	for i, e := range exps {
		terms[i] = scoring.Term{Field: q.field, Term: []byte(e.term), Text: q.text}
		st, err := terms[i].Stats(rd)
		if err != nil {
			return nil, nil, err
		}
		stats[i], maxDF = st, max(maxDF, st.DocFreq)
	}
	if q.opts.mode == rewriteBlended {
		for i := range stats {
			if stats[i].DocFreq > 0 {
				stats[i].DocFreq = maxDF
			}
		}
	}
	return terms, stats, nil
}

func (q *fuzzyQuery) termScorer(ctx context.Context, r index.IndexReader, t scoring.Term, st scoring.TermStats, boost float32) (search.Searcher, error) {
	if q.opts.mode == rewriteBoostOnly {
		s, err := scoring.NewTermSearcher(ctx, r, t, nil)
		if err != nil {
			return nil, err
		}
		return scoring.NewConstant(s, boost), nil
	}
	return scoring.NewTermSearcher(ctx, r, t, t.Weight(st, boost))
}
