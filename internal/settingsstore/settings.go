package settingsstore

import (
	"context"
	"fmt"
	"reflect"

	"sigs.k8s.io/controller-runtime/pkg/client"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/indexmapping"
	"github.com/aislehq/aisle/internal/indexsettings"
)

// MaxSettingsBytes bounds an index's settings as stored. The CRD's item limits allow
// about 2 MB of synonyms: more than etcd stores in one object (1.5 MiB by default, with
// the policy and status beside the settings), which the Kubernetes API answers with a
// server error. 512 KiB holds thousands of synonym groups.
const MaxSettingsBytes = 512 << 10

// settingsKeys are what a PUT /config replaces: every settings field, derived from the type
// so that a new setting left out of a request returns to its default too.
var settingsKeys = jsonPaths(reflect.TypeOf(searchv1alpha1.IndexSettings{}), "")

// SettingsWrite is what PutSettings stored, and which changes apply at once or rebuild.
type SettingsWrite struct {
	Index   *searchv1alpha1.SearchIndex
	Changes indexsettings.Changes
	// Version is the history's version of the new settings; 0 when nothing changed or
	// the store keeps no history.
	Version int64
}

// PutSettings replaces the settings of idx with next, or refuses them with
// ErrInvalidSettings naming every broken rule, the Kubernetes API's among them. A
// change is kept in the history as written by by (an API key's name).
func (s *Store) PutSettings(ctx context.Context, idx client.ObjectKey, next searchv1alpha1.IndexSettings, by string) (SettingsWrite, error) {
	w, before, err := s.putSettings(ctx, idx, next)
	if err != nil || (len(w.Changes.Applied) == 0 && len(w.Changes.Rebuilt) == 0) {
		return w, err
	}
	w.Version, err = s.record(ctx, idx, before, w, by, changeSummary(w.Changes))
	return w, err
}

// putSettings writes next, and returns the settings it replaced.
func (s *Store) putSettings(ctx context.Context, idx client.ObjectKey, next searchv1alpha1.IndexSettings) (SettingsWrite, searchv1alpha1.IndexSettings, error) {
	none := searchv1alpha1.IndexSettings{}
	problems, err := s.settingsProblems(ctx, idx, next)
	if err != nil {
		return SettingsWrite{}, none, err
	}
	if len(problems) > 0 {
		// Only a dry run follows, for the Kubernetes API's own rules on the rest.
		next = indexsettings.Dedupe(next)
	}
	// The settings before the change, read from the Kubernetes API: an informer may not
	// have seen this client's previous change yet.
	before, err := s.get(ctx, idx)
	if err != nil {
		return SettingsWrite{}, none, err
	}
	patch, err := settingsPatch(before.Spec.Settings, next)
	if err != nil {
		return SettingsWrite{}, none, err
	}
	if len(patch) > MaxSettingsBytes {
		return SettingsWrite{}, none, fmt.Errorf("%w: they take %d bytes as stored; an index's settings may take at most %d (synonyms take the most)",
			ErrInvalidSettings, len(patch), MaxSettingsBytes)
	}
	updated, err := s.patch(ctx, idx, patch, len(problems) > 0)
	if err := refusal(ErrInvalidSettings, problems, err); err != nil {
		return SettingsWrite{}, none, err
	}
	return SettingsWrite{Index: updated, Changes: indexsettings.Diff(before.Spec.Settings, updated.Spec.Settings)}, before.Spec.Settings, nil
}

// settingsProblems names the rules next breaks that the CRD cannot state, its own and
// those of the index's records: a searchable path they hold in another shape than text.
func (s *Store) settingsProblems(ctx context.Context, idx client.ObjectKey, next searchv1alpha1.IndexSettings) ([]indexsettings.FieldError, error) {
	problems := indexsettings.Check(next, indexmapping.VersionField)
	if s.schemas == nil || len(next.SearchableFields) == 0 {
		return problems, nil
	}
	schema, err := s.schemas.Schema(ctx, esnames.For(idx.Namespace, idx.Name).Alias())
	if err != nil {
		return nil, err
	}
	return append(problems, indexsettings.CheckShapes(next, schema)...), nil
}
