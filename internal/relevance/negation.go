package relevance

import searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"

// Negations are the words by which a language says a product lacks something: a word
// before what is lacking ("without gelatin", "no mugs") or after it ("gluten free"). A
// query's negated word is not a word to match: the records that hold it rank below those
// that lack it or say they do.
type Negations struct {
	Before, After map[string]bool
}

// negations are each language's, folded. Languages that write "free" as part of the
// word (German glutenfrei) only have their words before.
var negations = map[searchv1alpha1.Language]Negations{
	searchv1alpha1.LanguageEnglish:    {Before: set("without", "no"), After: set("free")},
	searchv1alpha1.LanguageGerman:     {Before: set("ohne", "kein", "keine")},
	searchv1alpha1.LanguageFrench:     {Before: set("sans")},
	searchv1alpha1.LanguageSpanish:    {Before: set("sin")},
	searchv1alpha1.LanguageItalian:    {Before: set("senza")},
	searchv1alpha1.LanguageDutch:      {Before: set("zonder", "geen")},
	searchv1alpha1.LanguagePortuguese: {Before: set("sem")},
	searchv1alpha1.LanguageSwedish:    {Before: set("utan")},
	searchv1alpha1.LanguageDanish:     {Before: set("uden")},
	searchv1alpha1.LanguageNorwegian:  {Before: set("uten")},
	searchv1alpha1.LanguageFinnish:    {Before: set("ilman")},
	searchv1alpha1.LanguageTurkish:    {Before: set("olmadan")},
	searchv1alpha1.LanguagePolish:     {Before: set("bez")},
}

// NegationsOf are the negation words of an index's language (none for generic).
func NegationsOf(s searchv1alpha1.IndexSettings) Negations {
	return negations[Language(s)]
}

func set(words ...string) map[string]bool {
	out := make(map[string]bool, len(words))
	for _, w := range words {
		out[w] = true
	}
	return out
}
