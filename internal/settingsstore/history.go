package settingsstore

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/history"
	"github.com/aislehq/aisle/internal/indexsettings"
)

// ErrNoHistory: the store was built without a history (no search backend) (503).
var ErrNoHistory = errors.New("settings history unavailable: no search backend configured")

// WithHistory makes every change of settings through the store keep a version in h (the
// settings live in the SearchIndex; their versions in the index's control index).
// Changes made past the API (kubectl, GitOps) are not versions: restoring one puts back
// what the API last wrote then.
func (s *Store) WithHistory(h *history.Log) *Store {
	s.history = h
	return s
}

// record keeps the settings w stored as a version written by by; before is the state
// the history starts from when it is empty.
func (s *Store) record(ctx context.Context, idx client.ObjectKey, before searchv1alpha1.IndexSettings, w SettingsWrite, by, summary string) (int64, error) {
	if s.history == nil {
		return 0, nil
	}
	n, err := s.history.Record(ctx, esnames.For(idx.Namespace, idx.Name),
		history.Change{By: by, Summary: summary, State: w.Index.Spec.Settings, Before: before})
	if err != nil {
		return 0, fmt.Errorf("the settings were changed, but not kept in their history: %w", err)
	}
	return n, nil
}

// History lists the versions of idx's settings, newest first.
func (s *Store) History(ctx context.Context, idx client.ObjectKey) ([]history.Version, error) {
	if s.history == nil {
		return nil, ErrNoHistory
	}
	return s.history.List(ctx, esnames.For(idx.Namespace, idx.Name))
}

// RestoreSettings puts back version n of idx's settings, as a change of its own by by:
// history.ErrVersionNotFound when the history does not hold it, ErrInvalidSettings when
// those settings no longer fit the index's records.
func (s *Store) RestoreSettings(ctx context.Context, idx client.ObjectKey, n int64, by string) (SettingsWrite, error) {
	if s.history == nil {
		return SettingsWrite{}, ErrNoHistory
	}
	var old searchv1alpha1.IndexSettings
	if _, err := s.history.State(ctx, esnames.For(idx.Namespace, idx.Name), n, &old); err != nil {
		return SettingsWrite{}, err
	}
	w, before, err := s.putSettings(ctx, idx, old)
	if err != nil {
		return w, err
	}
	w.Version, err = s.record(ctx, idx, before, w, by, fmt.Sprintf("restored version %d: %s", n, changeSummary(w.Changes)))
	return w, err
}

// changeSummary says which settings a change changed.
func changeSummary(c indexsettings.Changes) string {
	changed := append(append([]string{}, c.Applied...), c.Rebuilt...)
	if len(changed) == 0 {
		return "no setting changed"
	}
	return "changed " + strings.Join(changed, ", ")
}
