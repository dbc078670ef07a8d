package dsl

import (
	"math"
	"sort"
	"unicode/utf8"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// termSelection holds more_like_this's term selection parameters, with Lucene's
// MoreLikeThis defaults, and the words never to select (of the unlike texts and
// documents, keyed field+"\x00"+word).
type termSelection struct {
	maxQueryTerms, minTermFreq, minDocFreq, maxDocFreq int
	minWordLength, maxWordLength                       int
	stopWords, skip                                    map[string]bool
}

func defaultSelection() termSelection {
	return termSelection{maxQueryTerms: 25, minTermFreq: 2, minDocFreq: 5, maxDocFreq: math.MaxInt32}
}

func (s *termSelection) option(k string, v any) error {
	dst := map[string]*int{
		"max_query_terms": &s.maxQueryTerms, "min_term_freq": &s.minTermFreq, "min_doc_freq": &s.minDocFreq,
		"max_doc_freq": &s.maxDocFreq, "min_word_length": &s.minWordLength, "max_word_length": &s.maxWordLength,
	}[k]
	if dst == nil {
		return eserr.Parsing("[mlt] query does not support [%s]", k)
	}
	n, err := mltInt(k, v)
	*dst = n
	return err
}

// noise reports a word too short, too long or a stop word.
func (s termSelection) noise(w string) bool {
	n := utf8.RuneCountInString(w)
	return (s.minWordLength > 0 && n < s.minWordLength) || (s.maxWordLength > 0 && n > s.maxWordLength) || s.stopWords[w]
}

// selectedTerm is a word chosen for the query, in the field where it is most frequent.
type selectedTerm struct {
	field, word string
	score       float64
	boost       float64
}

// selectPerField chooses the words of the like documents field by field, up to
// max_query_terms in each (Lucene's MoreLikeThis.like(Fields...)).
func (q *mlt) selectPerField(c *Context, freqs map[string]map[string]int, sel termSelection) []selectedTerm {
	fields := make([]string, 0, len(freqs))
	for f := range freqs {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	var out []selectedTerm
	for _, f := range fields {
		words := map[string]int{}
		for w, n := range freqs[f] {
			if !sel.noise(w) && !sel.skip[f+"\x00"+w] {
				words[w] = n
			}
		}
		out = append(out, q.boosted(sel.top(c, words, []string{f}))...)
	}
	return out
}

// selectAcross chooses the words of the like texts, each in the field of fields that
// holds it most often.
func (q *mlt) selectAcross(c *Context, freqs map[string]int, fields []string, sel termSelection) []selectedTerm {
	return q.boosted(sel.top(c, freqs, fields))
}

// top keeps the max_query_terms words of highest tf-idf (ClassicSimilarity's idf, as
// Elasticsearch's MoreLikeThisQuery uses), after the frequency bounds.
func (s termSelection) top(c *Context, words map[string]int, fields []string) []selectedTerm {
	numDocs := c.Corpus.NumDocs()
	var cands []selectedTerm
	for w, tf := range words {
		if s.minTermFreq > 0 && tf < s.minTermFreq {
			continue
		}
		field, df := fields[0], 0
		for _, f := range fields {
			if n := c.Corpus.DocFreq(f, w); n > df {
				field, df = f, n
			}
		}
		if (s.minDocFreq > 0 && df < s.minDocFreq) || df > s.maxDocFreq || df == 0 {
			continue
		}
		idf := math.Log(float64(numDocs+1)/float64(df+1)) + 1
		cands = append(cands, selectedTerm{field: field, word: w, score: float64(tf) * idf})
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score > cands[j].score
		}
		return cands[i].word < cands[j].word
	})
	return cands[:min(len(cands), max(s.maxQueryTerms, 0))]
}

// boosted sets each term's boost: 1, or with boost_terms the factor times the term's
// score over the first score Lucene pops from its queue, which is the lowest.
func (q *mlt) boosted(terms []selectedTerm) []selectedTerm {
	for i := range terms {
		terms[i].boost = 1
		if q.boostTerms != 0 {
			terms[i].boost = q.boostTerms * terms[i].score / terms[len(terms)-1].score
		}
	}
	return terms
}
