// Package indexlifecycle makes, finds, moves and deletes the physical indices of a
// SearchIndex and the alias in front of them. The operator creates the first physical
// index; the catalog creates the next ones (replacements, stages, rebuilds), moves the
// alias to them and deletes the old ones; both do it here, under one rule for the
// generation a new physical index takes (Next).
//
// The decisions are pure functions (Next, Highest, Newest, Aliased, AliasActions); the
// Indices methods are one request each to the backend, with errors classified by es.
package indexlifecycle

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/expandwildcard"

	"github.com/aislehq/aisle/internal/es"
)

// Indices runs the lifecycle requests on one backend.
type Indices struct {
	es *elasticsearch.TypedClient
}

// New returns the lifecycle requests on client.
func New(client *elasticsearch.TypedClient) Indices {
	return Indices{es: client}
}

// Create creates index physical with body (its mappings, settings and aliases); one that
// exists already is es.ErrConflict.
func (x Indices) Create(ctx context.Context, physical string, body []byte) error {
	if _, err := x.es.Indices.Create(physical).Raw(bytes.NewReader(body)).Do(ctx); err != nil {
		return fmt.Errorf("creating index %s: %w", physical, es.Classify(err))
	}
	return nil
}

// List returns the indices matching a wildcard pattern with their aliases, mappings and
// settings, open or closed; none is not an error.
func (x Indices) List(ctx context.Context, pattern string) (map[string]types.IndexState, error) {
	res, err := x.es.Indices.Get(pattern).
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

// AliasTarget returns the physical index behind alias ("" when there is none).
func (x Indices) AliasTarget(ctx context.Context, alias string) (string, error) {
	res, err := x.es.Indices.GetAlias().Name(alias).Do(ctx)
	if err := es.Classify(err); err != nil {
		if errors.Is(err, es.ErrNotFound) {
			return "", nil
		}
		return "", fmt.Errorf("reading alias %s: %w", alias, err)
	}
	if len(res) == 0 {
		return "", nil
	}
	return Names(res)[0], nil
}

// MoveAlias points alias at to, taking it off from (none when ""), in one
// POST /_aliases: readers see one index or the other, never both nor none.
func (x Indices) MoveAlias(ctx context.Context, alias, from, to string) error {
	if _, err := x.es.Indices.UpdateAliases().Actions(AliasActions(alias, from, to)...).Do(ctx); err != nil {
		return fmt.Errorf("moving alias %s to %s: %w", alias, to, es.Classify(err))
	}
	return nil
}

// Delete deletes an index; one that does not exist is not an error.
func (x Indices) Delete(ctx context.Context, name string) error {
	_, err := x.es.Indices.Delete(name).Do(ctx)
	if err := es.Classify(err); err != nil && !errors.Is(err, es.ErrNotFound) {
		return fmt.Errorf("deleting index %s: %w", name, err)
	}
	return nil
}

// Exists reports whether an index exists.
func (x Indices) Exists(ctx context.Context, name string) (bool, error) {
	ok, err := x.es.Indices.Exists(name).Do(ctx)
	if err != nil {
		return false, fmt.Errorf("checking index %s: %w", name, es.Classify(err))
	}
	return ok, nil
}

// Names returns the names of indices, sorted.
func Names[V any](indices map[string]V) []string {
	out := make([]string, 0, len(indices))
	for name := range indices {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}
