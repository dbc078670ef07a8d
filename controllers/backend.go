package controllers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/expandwildcard"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// Backend is what the SearchIndex reconciler does in Elasticsearch. Every error it returns
// is classified by es.Classify.
type Backend struct {
	ES *elasticsearch.TypedClient
}

// IndexState is what exists behind a SearchIndex's alias.
type IndexState struct {
	Physical     string
	SettingsHash string
	Created      bool
}

// EnsureIndex makes the alias point at a physical index, creating the first physical
// index (with its alias, in one call) from the settings when there is none.
func (b *Backend) EnsureIndex(ctx context.Context, names esnames.Index, settings searchv1alpha1.IndexSettings) (IndexState, error) {
	indices, err := b.get(ctx, names.PhysicalPattern())
	if err != nil {
		return IndexState{}, err
	}
	if name, ok := aliased(indices, names.Alias()); ok {
		return IndexState{Physical: name, SettingsHash: settingsHash(indices[name])}, nil
	}
	if name, ok := newest(names, indices); ok {
		// A physical index without the alias: a crash between steps of a swap, or
		// data kept from an earlier object. Point the alias back at it.
		if err := b.addAlias(ctx, name, names.Alias()); err != nil {
			return IndexState{}, err
		}
		return IndexState{Physical: name, SettingsHash: settingsHash(indices[name])}, nil
	}
	return b.create(ctx, names, settings)
}

func (b *Backend) create(ctx context.Context, names esnames.Index, settings searchv1alpha1.IndexSettings) (IndexState, error) {
	body, err := indexmapping.Build(settings)
	if err != nil {
		return IndexState{}, fmt.Errorf("deriving the index mapping: %w", err)
	}
	body.Aliases = map[string]any{names.Alias(): map[string]any{}}
	raw, err := body.JSON()
	if err != nil {
		return IndexState{}, fmt.Errorf("encoding the index body: %w", err)
	}
	physical := names.Physical(1)
	if _, err := b.ES.Indices.Create(physical).Raw(bytes.NewReader(raw)).Do(ctx); err != nil {
		return IndexState{}, fmt.Errorf("creating index %s: %w", physical, es.Classify(err))
	}
	hash, _ := indexmapping.Hash(settings)
	return IndexState{Physical: physical, SettingsHash: hash, Created: true}, nil
}

func (b *Backend) addAlias(ctx context.Context, physical, alias string) error {
	_, err := b.ES.Indices.UpdateAliases().Actions(types.IndicesAction{
		Add: &types.AddAction{Index: &physical, Alias: &alias},
	}).Do(ctx)
	if err != nil {
		return fmt.Errorf("adding alias %s to %s: %w", alias, physical, es.Classify(err))
	}
	return nil
}

// Count returns the number of records behind the alias.
func (b *Backend) Count(ctx context.Context, alias string) (int64, error) {
	res, err := b.ES.Core.Count().Index(alias).Do(ctx)
	if err != nil {
		return 0, fmt.Errorf("counting %s: %w", alias, es.Classify(err))
	}
	return res.Count, nil
}

// DeleteAll deletes every Elasticsearch index of the SearchIndex: physical record
// indices (and with them the alias), event indices, the order index and any other index
// under its stem. Elasticsearch 8 refuses wildcard deletes, so each goes by name.
func (b *Backend) DeleteAll(ctx context.Context, names esnames.Index) ([]string, error) {
	indices, err := b.get(ctx, names.AllPattern())
	if err != nil {
		return nil, err
	}
	deleted := make([]string, 0, len(indices))
	for _, name := range sortedNames(indices) {
		_, err := b.ES.Indices.Delete(name).Do(ctx)
		if err := es.Classify(err); err != nil && !errors.Is(err, es.ErrNotFound) {
			return deleted, fmt.Errorf("deleting index %s: %w", name, err)
		}
		deleted = append(deleted, name)
	}
	return deleted, nil
}

// get returns the indices matching a wildcard pattern (none is not an error).
func (b *Backend) get(ctx context.Context, pattern string) (map[string]types.IndexState, error) {
	res, err := b.ES.Indices.Get(pattern).
		ExpandWildcards(expandwildcard.Open, expandwildcard.Closed).
		AllowNoIndices(true).IgnoreUnavailable(true).Do(ctx)
	if err := es.Classify(err); err != nil {
		if errors.Is(err, es.ErrNotFound) {
			return map[string]types.IndexState{}, nil
		}
		return nil, fmt.Errorf("listing indices %s: %w", pattern, err)
	}
	return res, nil
}

func aliased(indices map[string]types.IndexState, alias string) (string, bool) {
	for _, name := range sortedNames(indices) {
		if _, ok := indices[name].Aliases[alias]; ok {
			return name, true
		}
	}
	return "", false
}

// newest returns the physical index with the highest generation.
func newest(names esnames.Index, indices map[string]types.IndexState) (string, bool) {
	best, bestGen := "", int64(-1)
	for name := range indices {
		if gen, err := names.Generation(name); err == nil && gen > bestGen {
			best, bestGen = name, gen
		}
	}
	return best, best != ""
}

func settingsHash(state types.IndexState) string {
	if state.Mappings == nil {
		return ""
	}
	var meta struct {
		SettingsHash string `json:"settingsHash"`
	}
	if raw, ok := state.Mappings.Meta_["aisle"]; ok {
		_ = json.Unmarshal(raw, &meta)
	}
	return meta.SettingsHash
}

func sortedNames(indices map[string]types.IndexState) []string {
	out := make([]string, 0, len(indices))
	for name := range indices {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}
