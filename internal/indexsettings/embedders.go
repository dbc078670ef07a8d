package indexsettings

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/doctemplate"
)

// An embedder's name is a field name of the index (_vectors.<name>): no dots.
var embedderName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// A Secret's name and key, as Kubernetes takes them.
var (
	secretName = regexp.MustCompile(`^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$`)
	secretKey  = regexp.MustCompile(`^[-._a-zA-Z0-9]{1,253}$`)
)

// checkEmbedders: each name a plain field name, a known source and similarity, and
// dimensions Elasticsearch's dense_vector can index; what only an openAI embedder takes
// on it alone, and well formed.
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
		switch e.Source {
		case searchv1alpha1.EmbedderUserProvided:
			out = append(out, userProvidedOnly(e, place)...)
		case searchv1alpha1.EmbedderOpenAI:
			out = append(out, checkOpenAI(e, place)...)
		default:
			out = append(out, FieldError{place + ".source", fmt.Sprintf("%q is not a source (sources: openAI, userProvided)", e.Source)})
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

// userProvidedOnly: a userProvided embedder computes nothing, so what tells a server how
// to compute is a mistake, not a no-op.
func userProvidedOnly(e searchv1alpha1.Embedder, place string) []FieldError {
	var out []FieldError
	for key, set := range map[string]bool{
		"url": e.URL != "", "model": e.Model != "", "apiKeySecret": e.APIKeySecret != nil, "sendDimensions": e.SendDimensions,
		"documentTemplate": e.DocumentTemplate != "", "documentTemplateMaxBytes": e.DocumentTemplateMaxBytes != 0,
	} {
		if set {
			out = append(out, FieldError{place + "." + key, "is only for an openAI embedder (a userProvided one computes no vector)"})
		}
	}
	slices.SortFunc(out, func(a, b FieldError) int { return strings.Compare(a.Field, b.Field) })
	return out
}

func checkOpenAI(e searchv1alpha1.Embedder, place string) []FieldError {
	var out []FieldError
	if e.URL != "" {
		if msg := checkURL(e.URL); msg != "" {
			out = append(out, FieldError{place + ".url", msg})
		}
	}
	if e.Model == "" {
		out = append(out, FieldError{place + ".model", "is required for an openAI embedder (the model the server embeds with)"})
	}
	if e.DocumentTemplate == "" {
		out = append(out, FieldError{place + ".documentTemplate", `is required for an openAI embedder, e.g. "{{title}} by {{brand}}. {{description}}"`})
	} else if _, err := doctemplate.Parse(e.DocumentTemplate); err != nil {
		out = append(out, FieldError{place + ".documentTemplate", err.Error()})
	}
	if n := e.DocumentTemplateMaxBytes; n < 0 || n > searchv1alpha1.MaxDocumentTemplateMaxBytes {
		out = append(out, FieldError{place + ".documentTemplateMaxBytes", fmt.Sprintf("must be 1 to %d, got %d", searchv1alpha1.MaxDocumentTemplateMaxBytes, n)})
	}
	if k := e.APIKeySecret; k != nil {
		if !secretName.MatchString(k.Name) {
			out = append(out, FieldError{place + ".apiKeySecret.name", fmt.Sprintf("%q is not a Secret's name (lower-case letters, digits, - and .)", k.Name)})
		}
		if k.Key != "" && !secretKey.MatchString(k.Key) {
			out = append(out, FieldError{place + ".apiKeySecret.key", fmt.Sprintf("%q is not a Secret's key (letters, digits, -, _ and .)", k.Key)})
		}
	}
	return out
}

// checkURL: an absolute http or https URL without query or fragment (the API appends
// /v1/embeddings to it).
func checkURL(raw string) string {
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Host == "":
		return fmt.Sprintf("%q is not an absolute URL, e.g. http://embedder:8080", raw)
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Sprintf("%q: the scheme must be http or https", raw)
	case u.RawQuery != "" || u.Fragment != "" || u.User != nil:
		return fmt.Sprintf("%q: no query, fragment or credentials (a token goes in apiKeySecret)", raw)
	}
	return ""
}
