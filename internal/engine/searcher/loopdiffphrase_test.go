package searcher

import (
	"fmt"
	"math/rand"
	"strings"
)

// diffTexts are the descriptions diffDoc wrote, which phrases are drawn from so that they
// often match.
var diffTexts []string

// diffStopWords are words the english analyzer of the notes field removes: a phrase
// through one keeps a position between its words, as the indexed text does.
var diffStopWords = strings.Fields("the of and a")

// diffNotes is a text of the notes field, with stop words among its words.
func diffNotes(r *rand.Rand) string {
	out := make([]string, 1+r.Intn(6))
	for i := range out {
		if r.Intn(4) == 0 {
			out[i] = diffStopWords[r.Intn(len(diffStopWords))]
		} else {
			out[i] = diffWords[r.Intn(len(diffWords))]
		}
	}
	return strings.Join(out, " ")
}

// diffLastPhrase is the phrase diffPhraseText gave last: a query's phrases on the same
// words of a field, at other slops and in other clauses, share the loop's reading of
// their positions.
var diffLastPhrase string

// diffPhraseText is two or three words: a run of an indexed description, or words drawn
// at random (a word repeated, now and then, or a stop word), or the last phrase again.
func diffPhraseText(r *rand.Rand) string {
	if diffLastPhrase == "" || r.Intn(3) > 0 {
		diffLastPhrase = newPhraseText(r)
	}
	return diffLastPhrase
}

func newPhraseText(r *rand.Rand) string {
	n := 2 + r.Intn(2)
	if words := strings.Fields(diffTexts[r.Intn(len(diffTexts))]); r.Intn(2) == 0 && len(words) >= n {
		at := r.Intn(len(words) - n + 1)
		return strings.Join(words[at:at+n], " ")
	}
	out := make([]string, n)
	for i := range out {
		out[i] = diffWords[r.Intn(len(diffWords))]
	}
	switch r.Intn(4) {
	case 0:
		out[n-1] = out[0]
	case 1:
		out[r.Intn(n)] = diffStopWords[r.Intn(len(diffStopWords))]
	}
	return strings.Join(out, " ")
}

// diffSlop is a phrase's slop: exact, a few moves, or enough to span two values of a
// field (ES's position_increment_gap of 100).
func diffSlop(r *rand.Rand) int {
	return []int{0, 0, 1, 2, 8, 120}[r.Intn(6)]
}

// diffPhrase is a random phrase query: match_phrase on one field, match_phrase_prefix,
// or multi_match of type phrase across fields.
func diffPhrase(r *rand.Rand) map[string]any {
	field := []string{"title", "description", "notes"}[r.Intn(3)]
	opts := map[string]any{"query": diffPhraseText(r), "slop": diffSlop(r)}
	switch r.Intn(4) {
	case 0:
		// A prefix of a letter or two: its expansions are several terms at one position.
		text := opts["query"].(string)
		last := strings.LastIndex(text, " ") + 1
		opts["query"] = text[:last+min(len(text)-last, 1+r.Intn(2))]
		return map[string]any{"match_phrase_prefix": map[string]any{field: opts}}
	case 1:
		opts["fields"] = []any{fmt.Sprint("title^", 1+r.Intn(3)), "description", "notes"}[:2+r.Intn(2)]
		opts["type"] = "phrase"
		return map[string]any{"multi_match": opts}
	}
	if r.Intn(3) == 0 {
		opts["boost"] = 1 + r.Intn(3)
	}
	return map[string]any{"match_phrase": map[string]any{field: opts}}
}

// diffProximity is the proximity clause of a catalog search (internal/searchquery): the
// same words as phrases of slops 0, 2 and 8 across fields, each a constant score.
func diffProximity(r *rand.Rand) map[string]any {
	text := diffPhraseText(r)
	var qs []any
	for i, slop := range []int{0, 2, 8} {
		mm := map[string]any{"fields": []any{"title", "description"}, "query": text, "type": "phrase", "slop": slop}
		qs = append(qs, map[string]any{"constant_score": map[string]any{"boost": 27 - 9*i, "filter": map[string]any{"multi_match": mm}}})
	}
	return map[string]any{"dis_max": map[string]any{"queries": qs}}
}
