package controllers

import (
	"context"
	"fmt"

	"github.com/elastic/go-elasticsearch/v8"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/indexlifecycle"
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
	indices, err := b.indices().List(ctx, names.PhysicalPattern())
	if err != nil {
		return IndexState{}, err
	}
	if name, ok := indexlifecycle.Aliased(indices, names.Alias()); ok {
		return IndexState{Physical: name, SettingsHash: indexlifecycle.MetaOf(indices[name]).SettingsHash}, nil
	}
	name, highest := indexlifecycle.Newest(names, indexlifecycle.Names(indices))
	if name != "" {
		// A physical index without the alias: a crash between steps of a swap, or
		// data kept from an earlier object. Point the alias back at it.
		if err := b.indices().MoveAlias(ctx, names.Alias(), "", name); err != nil {
			return IndexState{}, err
		}
		return IndexState{Physical: name, SettingsHash: indexlifecycle.MetaOf(indices[name]).SettingsHash}, nil
	}
	// The operator counts no generations: the first is the one above none.
	return b.create(ctx, names, settings, indexlifecycle.Next(0, highest))
}

func (b *Backend) create(ctx context.Context, names esnames.Index, settings searchv1alpha1.IndexSettings, gen int64) (IndexState, error) {
	body, err := indexmapping.Build(settings)
	if err != nil {
		return IndexState{}, fmt.Errorf("deriving the index mapping: %w", err)
	}
	body.Aliases = map[string]any{names.Alias(): map[string]any{}}
	raw, err := body.JSON()
	if err != nil {
		return IndexState{}, fmt.Errorf("encoding the index body: %w", err)
	}
	physical := names.Physical(gen)
	if err := b.indices().Create(ctx, physical, raw); err != nil {
		return IndexState{}, err
	}
	hash, _ := indexmapping.Hash(settings)
	return IndexState{Physical: physical, SettingsHash: hash, Created: true}, nil
}

func (b *Backend) indices() indexlifecycle.Indices { return indexlifecycle.New(b.ES) }

// Count returns the number of records behind the alias.
func (b *Backend) Count(ctx context.Context, alias string) (int64, error) {
	return b.indices().Count(ctx, alias)
}

// DeleteAll deletes every Elasticsearch index of the SearchIndex: physical record
// indices (and with them the alias), event indices, the order index and any other index
// under its stem. Elasticsearch 8 refuses wildcard deletes, so each goes by name.
func (b *Backend) DeleteAll(ctx context.Context, names esnames.Index) ([]string, error) {
	indices, err := b.indices().List(ctx, names.AllPattern())
	if err != nil {
		return nil, err
	}
	deleted := make([]string, 0, len(indices))
	for _, name := range indexlifecycle.Names(indices) {
		if err := b.indices().Delete(ctx, name); err != nil {
			return deleted, err
		}
		deleted = append(deleted, name)
	}
	return deleted, nil
}
