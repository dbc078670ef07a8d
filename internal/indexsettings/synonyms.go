package indexsettings

import (
	"fmt"
	"strings"
	"unicode"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// synonymFields are the fields of a synonym entry, by the types that take them.
var synonymFields = map[searchv1alpha1.SynonymType][]string{
	searchv1alpha1.SynonymMultiWay:      {"terms"},
	searchv1alpha1.SynonymOneWay:        {"input", "synonyms"},
	searchv1alpha1.SynonymAltCorrection: {"word", "corrections"},
}

// checkSynonyms names, per entry, the fields its type needs and lacks or does not take,
// and the terms no query word can match (only punctuation, symbols or spaces).
func checkSynonyms(s searchv1alpha1.IndexSettings) []FieldError {
	var out []FieldError
	for i, g := range s.Synonyms {
		place := fmt.Sprintf("%s[%d]", Synonyms, i)
		typ := synonymType(g)
		present := presentFields(g)
		if _, known := synonymFields[typ]; !known {
			continue // the CRD's enum names it
		}
		for _, f := range synonymFields[typ] {
			if !present[f] {
				out = append(out, FieldError{place + "." + f, fmt.Sprintf("is required by synonym type %s", typ)})
			}
		}
		for _, f := range []string{"terms", "input", "synonyms", "word", "corrections", "typos"} {
			if present[f] && !takes(typ, f) {
				out = append(out, FieldError{place + "." + f, fmt.Sprintf("is not a field of synonym type %s", typ)})
			}
		}
		out = append(out, wordless(place, g)...)
	}
	return out
}

func synonymType(g searchv1alpha1.SynonymGroup) searchv1alpha1.SynonymType {
	if g.Type == "" {
		return searchv1alpha1.SynonymMultiWay
	}
	return g.Type
}

func takes(typ searchv1alpha1.SynonymType, field string) bool {
	for _, f := range synonymFields[typ] {
		if f == field {
			return true
		}
	}
	return typ == searchv1alpha1.SynonymAltCorrection && field == "typos"
}

func presentFields(g searchv1alpha1.SynonymGroup) map[string]bool {
	return map[string]bool{"terms": g.Terms != nil, "input": g.Input != "", "synonyms": g.Synonyms != nil,
		"word": g.Word != "", "corrections": g.Corrections != nil, "typos": g.Typos != 0}
}

// wordless names the terms of an entry holding no letter or digit: no query word equals
// them, and a phrase of them matches nothing.
func wordless(place string, g searchv1alpha1.SynonymGroup) []FieldError {
	var out []FieldError
	check := func(at, term string) {
		if !strings.ContainsFunc(term, isWordRune) {
			out = append(out, FieldError{at, fmt.Sprintf("%q holds no letter or digit: no query can match it", term)})
		}
	}
	for _, list := range []struct {
		name  string
		terms []string
	}{{"terms", g.Terms}, {"synonyms", g.Synonyms}, {"corrections", g.Corrections}} {
		for j, t := range list.terms {
			check(fmt.Sprintf("%s.%s[%d]", place, list.name, j), t)
		}
	}
	if g.Input != "" {
		check(place+".input", g.Input)
	}
	if g.Word != "" {
		check(place+".word", g.Word)
	}
	return out
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// dedupeSynonyms drops repeated terms within each entry's lists, so that a dry run of
// the rest is not cut short by the API server's "Duplicate value".
func dedupeSynonyms(groups []searchv1alpha1.SynonymGroup) []searchv1alpha1.SynonymGroup {
	if groups == nil {
		return nil
	}
	out := make([]searchv1alpha1.SynonymGroup, len(groups))
	for i, g := range groups {
		g.Terms = firstBy(g.Terms, same)
		g.Synonyms = firstBy(g.Synonyms, same)
		g.Corrections = firstBy(g.Corrections, same)
		out[i] = g
	}
	return out
}
