package embedding

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/doctemplate"
	"github.com/aislehq/aisle/internal/esnames"
)

// IndexLister lists every SearchIndex (the API server's informer cache).
type IndexLister func(ctx context.Context) ([]searchv1alpha1.SearchIndex, error)

// Run embeds, until ctx ends, the records waiting for a vector of an openAI embedder
// of any index: pass after pass while there is work, pausing Interval when there is
// none or a pass failed (the failure is logged; the records keep waiting). When ctx
// ends it releases its leases, so that another replica, or this one restarted, goes on
// at once.
func (s *Service) Run(ctx context.Context, list IndexLister) {
	defer s.release(ctx)
	for ctx.Err() == nil {
		busy := false
		idxs, err := list(ctx)
		if err != nil {
			s.cfg.Logger.ErrorContext(ctx, "listing indexes for their embedders", slog.Any("error", err))
		}
		for i := range idxs {
			worked, idle := s.embedIndex(ctx, &idxs[i])
			busy = busy || worked
			if idle {
				s.pruneIdle(ctx, &idxs[i])
			}
		}
		if err == nil {
			s.retainQueries(idxs)
		}
		if !busy {
			select {
			case <-ctx.Done():
			case <-time.After(s.cfg.Interval):
			}
		}
	}
}

// embedIndex runs a pass for each openAI embedder of idx: worked when one embedded
// records, idle when none failed and none found a record waiting.
func (s *Service) embedIndex(ctx context.Context, idx *searchv1alpha1.SearchIndex) (worked, idle bool) {
	idle = true
	for _, n := range Computed(idx.Spec.Settings) {
		done, err := s.Pass(ctx, idx, n)
		if err != nil && ctx.Err() == nil {
			s.cfg.Logger.ErrorContext(ctx, "embedding records", slog.String("index", idx.Namespace+"/"+idx.Name),
				slog.String("embedder", n.Name), slog.Any("error", err))
		}
		worked = worked || (err == nil && done > 0)
		idle = idle && err == nil && done == 0
	}
	return worked, idle
}

// release gives up the leases of a replica that stops, within a few seconds of ctx's
// end.
func (s *Service) release(ctx context.Context) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := s.leases.releaseAll(ctx, s.control); err != nil {
		s.cfg.Logger.WarnContext(ctx, "the embedding leases are left to lapse", slog.Any("error", err))
	}
}

// Pass embeds up to Records records of idx waiting for n's vector, and answers how many
// it looked at (0: none waits).
func (s *Service) Pass(ctx context.Context, idx *searchv1alpha1.SearchIndex, n Named) (int, error) {
	tpl, err := doctemplate.Parse(n.DocumentTemplate)
	if err != nil {
		return 0, fmt.Errorf("embedder %s's template: %w", n.Name, err)
	}
	names := esnames.For(idx.Namespace, idx.Name)
	if built, err := s.store.builtFrom(ctx, names.Alias(), idx.Spec.Settings); err != nil || !built {
		return 0, err // a rebuild is under way: its new index gets the vectors
	}
	docs, err := s.store.waiting(ctx, names.Alias(), n, s.cfg.Records)
	if err != nil || len(docs) == 0 {
		return 0, err
	}
	// The lease is taken only when there is work: an idle pass writes nothing.
	taken := time.Now()
	if held, err := s.leases.hold(ctx, s.control, names, n.Name, s.cfg.Holder, taken, s.cfg.Lease); err != nil || !held {
		return 0, err
	}
	ctx, stop := s.keepLease(ctx, names, n.Name, taken)
	defer stop()
	fp := Fingerprint(n.Embedder)
	keys, texts, err := textsOf(docs, tpl, int(n.DocumentTemplateMaxBytes), VectorSource(n.Embedder))
	if err != nil {
		return 0, err
	}
	vectors, err := s.vectors(ctx, idx.Namespace, names.Embeddings(), n, texts)
	if err != nil {
		return 0, err
	}
	ups := make([]update, len(docs))
	for i, d := range docs {
		ups[i] = update{doc: d, set: stateDoc(n.Name, fp, keys[i], vectors[keys[i]])}
	}
	if _, _, err := s.store.apply(ctx, ups); err != nil {
		return 0, err
	}
	return len(docs), nil
}

// textsOf renders each record's text and its key; texts maps each key of a non-empty
// text to it, once.
func textsOf(docs []waitingDoc, tpl doctemplate.Template, maxBytes int, source string) ([]string, map[string]string, error) {
	keys := make([]string, len(docs))
	texts := map[string]string{}
	for i, d := range docs {
		dec := json.NewDecoder(bytes.NewReader(d.Source))
		dec.UseNumber()
		var rec map[string]any
		if err := dec.Decode(&rec); err != nil {
			return nil, nil, fmt.Errorf("decoding record %s: %w", d.ID, err)
		}
		text := tpl.Render(rec, maxBytes)
		keys[i] = TextKey(source, text)
		if text != "" {
			texts[keys[i]] = text
		}
	}
	return keys, texts, nil
}

// vectors are the vectors of texts by key: those kept in the embeddings index, the
// others embedded (each text once) and kept.
func (s *Service) vectors(ctx context.Context, namespace, index string, n Named, texts map[string]string) (map[string][]float32, error) {
	wanted := make([]string, 0, len(texts))
	for k := range texts {
		wanted = append(wanted, k)
	}
	out, err := s.store.lookup(ctx, index, wanted)
	if err != nil {
		return nil, err
	}
	var missing []string
	for _, k := range wanted {
		if v, ok := out[k]; !ok || checkDims(v, n.Dimensions) != nil {
			missing = append(missing, k)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	c, err := s.client(ctx, namespace, n, s.cfg.Client)
	if err != nil {
		return nil, err
	}
	input := make([]string, len(missing))
	for i, k := range missing {
		input[i] = texts[k]
	}
	vs, err := c.Embed(ctx, input)
	if err != nil {
		return nil, fmt.Errorf("embedding %d texts with %s: %w", len(input), n.Name, err)
	}
	fresh := make(map[string][]float32, len(missing))
	for i, k := range missing {
		fresh[k], out[k] = vs[i], vs[i]
	}
	if err := s.store.keep(ctx, index, fresh); err != nil {
		return nil, err
	}
	return out, nil
}

// Waiting counts, per openAI embedder of idx, the records waiting for their vector.
func (s *Service) Waiting(ctx context.Context, idx *searchv1alpha1.SearchIndex) (map[string]int64, error) {
	ns := Computed(idx.Spec.Settings)
	if len(ns) == 0 {
		return nil, nil
	}
	alias := esnames.For(idx.Namespace, idx.Name).Alias()
	out := make(map[string]int64, len(ns))
	for _, n := range ns {
		c, err := s.store.count(ctx, alias, n)
		if err != nil {
			return nil, err
		}
		out[n.Name] = c
	}
	return out, nil
}
