package indexsettings

import (
	"fmt"
	"regexp"
	"slices"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// An embedder's name is a field name of the index (_vectors.<name>): no dots.
var embedderName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// checkEmbedders: each name a plain field name, a known source and similarity, and
// dimensions Elasticsearch's dense_vector can index.
func checkEmbedders(s searchv1alpha1.IndexSettings) []FieldError {
	names := make([]string, 0, len(s.Embedders))
	for name := range s.Embedders {
		names = append(names, name)
	}
	slices.Sort(names)
	var out []FieldError
	if len(names) > searchv1alpha1.MaxEmbedders {
		out = append(out, FieldError{Embedders, fmt.Sprintf("at most %d embedders, got %d", searchv1alpha1.MaxEmbedders, len(names))})
	}
	for _, name := range names {
		e, place := s.Embedders[name], Embedders+"."+name
		if !embedderName.MatchString(name) {
			out = append(out, FieldError{place, "an embedder's name is 1 to 64 letters, digits, _ and -"})
		}
		if e.Source != searchv1alpha1.EmbedderUserProvided {
			out = append(out, FieldError{place + ".source", fmt.Sprintf("%q is not a source (sources: userProvided)", e.Source)})
		}
		if e.Dimensions < 1 || e.Dimensions > searchv1alpha1.MaxEmbedderDimensions {
			out = append(out, FieldError{place + ".dimensions", fmt.Sprintf("must be 1 to %d, got %d", searchv1alpha1.MaxEmbedderDimensions, e.Dimensions)})
		}
		if e.Similarity != "" && e.Similarity != searchv1alpha1.SimilarityCosine {
			out = append(out, FieldError{place + ".similarity", fmt.Sprintf("%q is not a similarity (similarities: cosine)", e.Similarity)})
		}
	}
	return out
}
