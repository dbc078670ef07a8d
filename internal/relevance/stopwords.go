package relevance

import (
	"embed"
	"strings"
	"sync"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

//go:embed stopwords/*.txt
var stopFiles embed.FS

var (
	listsOnce sync.Once
	lists     map[searchv1alpha1.Language][]string
)

// LanguageStopWords is the list the language's analyzer drops, as written (accented):
// none for generic.
func LanguageStopWords(lang searchv1alpha1.Language) []string {
	listsOnce.Do(func() {
		lists = map[searchv1alpha1.Language][]string{}
		entries, _ := stopFiles.ReadDir("stopwords")
		for _, e := range entries {
			raw, _ := stopFiles.ReadFile("stopwords/" + e.Name())
			lang := searchv1alpha1.Language(strings.TrimSuffix(e.Name(), ".txt"))
			lists[lang] = strings.Fields(string(raw))
		}
	})
	return lists[lang]
}

// Stops are the words of a query that stop-word rules concern, folded as Fold folds.
type Stops struct {
	// Analyzer: the language analyzer drops these from the language-analysed field, so a
	// query keeping one must match it elsewhere.
	Analyzer map[string]bool
	// Dropped: the query drops these (unless it holds nothing else).
	Dropped map[string]bool
}

// StopsOf gives the stop words of an index's queries.
func StopsOf(s searchv1alpha1.IndexSettings) Stops {
	lang := foldAll(LanguageStopWords(Language(s)))
	sw := StopWords(s)
	out := Stops{Analyzer: lang, Dropped: map[string]bool{}}
	if !*sw.Enabled {
		return out
	}
	if !sw.Replace {
		for w := range lang {
			out.Dropped[w] = true
		}
	}
	for w := range foldAll(sw.Words) {
		out.Dropped[w] = true
	}
	return out
}

func foldAll(words []string) map[string]bool {
	out := make(map[string]bool, len(words))
	for _, w := range words {
		out[Fold(w)] = true
	}
	return out
}
