package apiserver

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/embedding"
	"github.com/aislehq/aisle/internal/searchquery"
)

// The API server gets the one Secret an openAI embedder's apiKeySecret names, by name,
// in the index's namespace; it never lists or watches Secrets.
// +kubebuilder:rbac:groups="",resources=secrets,verbs=get

// tokenTTL is how long a token read from a Secret is used before it is read again: a
// rotated key reaches the embedder calls within it, and a search does not cost a read.
const tokenTTL = 30 * time.Second

// SecretTokens reads apiKeySecret tokens with c, kept for tokenTTL.
func SecretTokens(c client.Reader) embedding.TokenFunc {
	kept := expirable.NewLRU[string, string](256, nil, tokenTTL)
	return func(ctx context.Context, ns string, ref searchv1alpha1.SecretKeySelector) (string, error) {
		id := ns + "/" + ref.Name + "/" + ref.Key
		if t, ok := kept.Get(id); ok {
			return t, nil
		}
		var sec corev1.Secret
		if err := c.Get(ctx, types.NamespacedName{Namespace: ns, Name: ref.Name}, &sec); err != nil {
			return "", fmt.Errorf("reading Secret %s/%s: %w", ns, ref.Name, err)
		}
		b, ok := sec.Data[ref.Key]
		if !ok || len(strings.TrimSpace(string(b))) == 0 {
			return "", fmt.Errorf("secret %s/%s has no key %s", ns, ref.Name, ref.Key)
		}
		t := strings.TrimSpace(string(b))
		kept.Add(id, t)
		return t, nil
	}
}

// embedQuery gives a hybrid search with an openAI embedder and no vector of its own
// the vector of its query's text. When the embedder fails, the search runs on words
// alone and says so (fallback true): a search never fails for its embedder.
func (s *Server) embedQuery(ctx context.Context, idx *searchv1alpha1.SearchIndex, req searchquery.Request) (_ searchquery.Request, fallback bool) {
	if s.embedding == nil || req.Hybrid == nil || req.Vector != nil {
		return req, false
	}
	text := strings.TrimSpace(req.Q)
	v, ok, err := s.embedding.QueryVector(ctx, idx, req.Hybrid.Embedder, text)
	switch {
	case !ok:
		return req, false // no openAI embedder: the request's own checks answer
	case text == "":
		req.Hybrid = nil // nothing to embed: an empty query lists by words' rules
		return req, false
	case err != nil:
		loggerFrom(ctx).WarnContext(ctx, "the query's embedder failed: searching by words only",
			slog.String("index", idx.Namespace+"/"+idx.Name), slog.String("embedder", req.Hybrid.Embedder), slog.Any("error", err))
		req.Hybrid = nil
		return req, true
	}
	req.Vector = v
	return req, false
}

// indexingStatus is GET /indexing's answer: the write receipt, and per openAI embedder
// how many records wait for their vector.
type indexingStatus struct {
	catalog.Receipt
	Embeddings map[string]embedderProgress `json:"embeddings,omitempty"`
}

type embedderProgress struct {
	Waiting int64 `json:"waiting"`
}

// embeddings counts the records of idx waiting for a vector; nil without openAI
// embedders or without the embedding service.
func (s *Server) embeddings(ctx context.Context, idx *searchv1alpha1.SearchIndex) (map[string]embedderProgress, error) {
	if s.embedding == nil {
		return nil, nil
	}
	counts, err := s.embedding.Waiting(ctx, idx)
	if err != nil || len(counts) == 0 {
		return nil, err
	}
	out := make(map[string]embedderProgress, len(counts))
	for name, n := range counts {
		out[name] = embedderProgress{Waiting: n}
	}
	return out, nil
}
