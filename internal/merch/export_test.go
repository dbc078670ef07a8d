package merch

import (
	"context"

	"github.com/aislehq/aisle/internal/esnames"
)

// Load reads the current generation's rules as a cache does.
func (s *Service) Load(ctx context.Context, names esnames.Index) ([]Rule, error) {
	_, docs, err := s.load(ctx, names)
	out := make([]Rule, len(docs))
	for i, d := range docs {
		out[i] = d.Rule
	}
	return out, err
}
