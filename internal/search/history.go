package search

import "github.com/aislehq/aisle/internal/history"

// ConfigHistory returns a history of settings on the service's backend, kept in each
// index's control index beside the rules' (see internal/settingsstore).
func (s *Service) ConfigHistory() *history.Log {
	return history.New(s.es, history.KindConfig, nil)
}
