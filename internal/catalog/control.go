package catalog

import (
	"context"

	"github.com/aislehq/aisle/internal/controlindex"
	"github.com/aislehq/aisle/internal/esnames"
)

// revisionID is the id of the revision document in the control index.
const revisionID = "revision"

// loadState reads the revision document; a missing one is the zero state.
func (s *Service) loadState(ctx context.Context, names esnames.Index) (State, controlindex.Versioned, error) {
	return controlindex.Read[State](ctx, s.docs, names, revisionID)
}

// ReadState reads the revision document of names; a missing one is the zero state.
func (s *Service) ReadState(ctx context.Context, names esnames.Index) (State, error) {
	st, _, err := s.loadState(ctx, names)
	return st, err
}
