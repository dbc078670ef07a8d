package embedding

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/indexlifecycle"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// store is the worker's reads and writes in Elasticsearch.
type store struct {
	es *elasticsearch.TypedClient
}

// waitingDoc is a record waiting for its vector, with what its update is guarded by.
type waitingDoc struct {
	Index  string          `json:"_index"`
	ID     string          `json:"_id"`
	Seq    int64           `json:"_seq_no"`
	Term   int64           `json:"_primary_term"`
	Source json.RawMessage `json:"_source"`
}

// waiting reads up to size records of alias waiting for embedder n's vector; the
// vectors and states stay out of the answer (they are not the text).
func (s store) waiting(ctx context.Context, alias string, n Named, size int) ([]waitingDoc, error) {
	body, err := json.Marshal(map[string]any{
		"size": size, "query": waitingQuery(n), "seq_no_primary_term": true, "sort": []any{"_doc"},
		"_source": map[string]any{"excludes": []string{indexmapping.VectorsField, indexmapping.EmbedStateField}},
	})
	if err != nil {
		return nil, fmt.Errorf("encoding the search of records waiting for %s: %w", n.Name, err)
	}
	raw, err := es.ReadBody(s.es.Search().Index(alias).Raw(bytes.NewReader(body)).Perform(ctx)) //nolint:bodyclose // ReadBody closes it
	if err != nil {
		return nil, fmt.Errorf("reading the records of %s waiting for %s: %w", alias, n.Name, err)
	}
	var ans struct {
		Hits struct {
			Hits []waitingDoc `json:"hits"`
		} `json:"hits"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		return nil, fmt.Errorf("decoding the records of %s waiting for %s: %w", alias, n.Name, err)
	}
	return ans.Hits.Hits, nil
}

// count is how many records of alias wait for embedder n's vector.
func (s store) count(ctx context.Context, alias string, n Named) (int64, error) {
	q := types.NewQuery()
	q.Bool = &types.BoolQuery{MustNot: []types.Query{{Term: map[string]types.TermQuery{
		indexmapping.EmbedConfigPath(n.Name): {Value: Fingerprint(n.Embedder)}}}}}
	res, err := s.es.Core.Count().Index(alias).Query(q).Do(ctx)
	if err != nil {
		return 0, fmt.Errorf("counting the records of %s waiting for %s: %w", alias, n.Name, es.Classify(err))
	}
	return res.Count, nil
}

// lookup returns the kept vectors of keys found in the embeddings index.
func (s store) lookup(ctx context.Context, index string, keys []string) (map[string][]float32, error) {
	out := map[string][]float32{}
	if len(keys) == 0 {
		return out, nil
	}
	body, err := json.Marshal(map[string]any{"ids": keys})
	if err != nil {
		return nil, fmt.Errorf("encoding the look-up of kept vectors: %w", err)
	}
	raw, err := es.ReadBody(s.es.Mget().Index(index).Raw(bytes.NewReader(body)).Perform(ctx)) //nolint:bodyclose // ReadBody closes it
	if errors.Is(err, es.ErrNotFound) {
		return out, nil // no vector kept yet: the index is made by the first
	}
	if err != nil {
		return nil, fmt.Errorf("looking up kept vectors in %s: %w", index, err)
	}
	var ans struct {
		Docs []struct {
			ID     string `json:"_id"`
			Found  bool   `json:"found"`
			Source struct {
				Vector []float32 `json:"vector"`
			} `json:"_source"`
		} `json:"docs"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		return nil, fmt.Errorf("decoding kept vectors of %s: %w", index, err)
	}
	for _, d := range ans.Docs {
		if d.Found && len(d.Source.Vector) > 0 {
			out[d.ID] = d.Source.Vector
		}
	}
	return out, nil
}

// keep writes vectors to the embeddings index, by key. The index maps nothing: it is
// read by id only.
func (s store) keep(ctx context.Context, index string, vectors map[string][]float32) error {
	if len(vectors) == 0 {
		return nil
	}
	if err := s.ensure(ctx, index); err != nil {
		return err
	}
	var buf bytes.Buffer
	for key, v := range vectors {
		if err := bulkLine(&buf, map[string]any{"index": map[string]any{"_id": key}}, map[string]any{"vector": v}); err != nil {
			return err
		}
	}
	res, err := s.es.Bulk().Index(index).Raw(&buf).Perform(ctx) //nolint:bodyclose // BulkItems closes it
	items, err := es.BulkItems(len(vectors), res, err)
	if err != nil {
		return fmt.Errorf("keeping %d vectors in %s: %w", len(vectors), index, err)
	}
	for _, it := range items {
		if it.Error != nil {
			return fmt.Errorf("keeping a vector in %s: %s: %s: %w", index, it.Error.Type, it.Error.Reason, es.ErrUnavailable)
		}
	}
	return nil
}

func (s store) ensure(ctx context.Context, index string) error {
	body := []byte(`{"mappings": {"dynamic": false, "properties": {}}}`)
	res, err := s.es.Indices.Create(index).Raw(bytes.NewReader(body)).Perform(ctx)
	if err != nil {
		return fmt.Errorf("creating %s: %w", index, es.Classify(err))
	}
	defer func() { _ = res.Body.Close() }()
	if res.StatusCode == http.StatusBadRequest {
		return nil // resource_already_exists_exception: made by another pass or replica
	}
	if err := es.ResponseError(res); err != nil {
		return fmt.Errorf("creating %s: %w", index, err)
	}
	return nil
}

// update is one record's vector and state, guarded by the seq_no and primary term it
// was read with.
type update struct {
	doc waitingDoc
	set map[string]any
}

// apply writes the updates; a record changed since it was read (409) is left as it is,
// and counted apart: its new content is found again by the next pass.
func (s store) apply(ctx context.Context, ups []update) (written, conflicts int, err error) {
	var buf bytes.Buffer
	for _, u := range ups {
		meta := map[string]any{"update": map[string]any{"_index": u.doc.Index, "_id": u.doc.ID,
			"if_seq_no": u.doc.Seq, "if_primary_term": u.doc.Term}}
		if err := bulkLine(&buf, meta, map[string]any{"doc": u.set}); err != nil {
			return 0, 0, err
		}
	}
	// wait_for: the next pass's search must not find these records again.
	res, err := s.es.Bulk().Refresh(refresh.Waitfor).Raw(&buf).Perform(ctx) //nolint:bodyclose // BulkItems closes it
	items, err := es.BulkItems(len(ups), res, err)
	if err != nil {
		return 0, 0, fmt.Errorf("writing %d vectors: %w", len(ups), err)
	}
	for _, it := range items {
		switch {
		case it.Error == nil:
			written++
		case it.Status == http.StatusConflict || it.Status == http.StatusNotFound:
			conflicts++ // rewritten or deleted meanwhile
		default:
			return written, conflicts, fmt.Errorf("writing the vector of %s: %s: %s: %w", it.ID, it.Error.Type, it.Error.Reason, es.ErrUnavailable)
		}
	}
	return written, conflicts, nil
}

func bulkLine(buf *bytes.Buffer, meta, doc any) error {
	for _, v := range []any{meta, doc} {
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("encoding a bulk line: %w", err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	return nil
}

// builtFrom reports whether the index behind alias was built from settings s (its
// mapping's settings hash, read as the catalog reads it: indexlifecycle.MetaOf): until a
// rebuild for a new embedder is done, the index has no field for its vectors.
func (s store) builtFrom(ctx context.Context, alias string, settings searchv1alpha1.IndexSettings) (bool, error) {
	want, err := indexmapping.Hash(settings)
	if err != nil {
		return false, err
	}
	states, err := indexlifecycle.New(s.es).List(ctx, alias)
	if err != nil {
		return false, err
	}
	for _, st := range states {
		if indexlifecycle.MetaOf(st).SettingsHash != want {
			return false, nil
		}
	}
	return len(states) > 0, nil
}
