package apiserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/gofiber/fiber/v2"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/indexsettings"
	"github.com/aislehq/aisle/internal/searchquery"
)

// FieldManager is the field manager of the API server's writes to SearchIndexes.
const FieldManager = "aisle-apiserver"

// PUT /config and the policy endpoints write the SearchIndex spec; nothing else.
// +kubebuilder:rbac:groups=search.aisle.dev,resources=searchindexes,verbs=patch

// putConfigResponse is the settings as stored, with what the change did.
type putConfigResponse struct {
	configResponse
	Applied []string `json:"applied"`
	Rebuilt []string `json:"rebuilt"`
}

// putConfig answers PUT /config: validate the full settings, write them into the
// SearchIndex, and say which changes apply at once and which need a rebuild.
func (s *Server) putConfig(c *fiber.Ctx) error {
	idx := tenantFrom(c.UserContext()).index
	var body settingsBody
	if err := decodeStrict(c.Body(), &body); err != nil {
		return err
	}
	next := body.settings()
	problems, err := s.settingsProblems(c, idx, next)
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		// Only a dry run follows, for the API server's own rules on the rest.
		next = indexsettings.Dedupe(next)
	}
	patch, err := fullObjectPatch(next, settingsKeys, "spec", "settings")
	if err != nil {
		return err
	}
	if len(patch) > MaxSettingsBytes {
		return errorf(fiber.StatusBadRequest, fmt.Sprintf("invalid settings: they take %d bytes as stored; an index's settings may take at most %d (synonyms take the most)", len(patch), MaxSettingsBytes))
	}
	// The settings before the change, read from the API server: the informer cache may
	// not have seen this client's previous change yet.
	before, err := s.currentIndex(c, idx)
	if err != nil {
		return err
	}
	updated, err := s.patchIndex(c, idx, patch, len(problems) > 0)
	if err := invalidSettings(problems, err); err != nil {
		return err
	}
	changes := indexsettings.Diff(before.Spec.Settings, updated.Spec.Settings)
	res := putConfigResponse{
		configResponse: configResponse{settingsBody: settingsOf(updated.Spec.Settings), Rebuild: rebuildOf(updated.Status.Rebuild)},
		Applied:        changes.Applied,
		Rebuilt:        changes.Rebuilt,
	}
	if len(changes.Rebuilt) > 0 {
		res.Rebuild = &rebuildBody{State: searchv1alpha1.RebuildPending}
	}
	return c.JSON(res)
}

// MaxSettingsBytes bounds an index's settings as stored. The CRD's item limits allow
// about 2 MB of synonyms: more than etcd stores in one object (1.5 MiB by default, with
// the policy and status beside the settings), which the Kubernetes API answers with a
// server error. 512 KiB holds thousands of synonym groups.
const MaxSettingsBytes = 512 << 10

// settingsProblems names the rules next breaks that the CRD cannot state, its own and
// those of the index's records: a searchable path they hold in another shape than text.
func (s *Server) settingsProblems(c *fiber.Ctx, idx *searchv1alpha1.SearchIndex, next searchv1alpha1.IndexSettings) ([]indexsettings.FieldError, error) {
	problems := indexsettings.Check(next, searchquery.VersionField)
	if s.search == nil || len(next.SearchableFields) == 0 {
		return problems, nil
	}
	schema, err := s.search.Schema(c.UserContext(), esnames.For(idx.Namespace, idx.Name).Alias())
	if err != nil {
		return nil, err
	}
	return append(problems, indexsettings.CheckShapes(next, schema)...), nil
}

var settingsKeys = []string{"searchableFields", "filterableFields", "facetFields", "sortableFields",
	"customRanking", "synonyms", "language", "countBrowserOrders"}

func (b settingsBody) settings() searchv1alpha1.IndexSettings {
	return searchv1alpha1.IndexSettings{
		SearchableFields: b.SearchableFields, FilterableFields: b.FilterableFields, FacetFields: b.FacetFields,
		SortableFields: b.SortableFields, CustomRanking: b.CustomRanking, Synonyms: b.Synonyms,
		Language: b.Language, CountBrowserOrders: b.CountBrowserOrders,
	}
}

// fullObjectPatch renders v as a JSON merge patch at path that replaces the object
// there entirely: merge patches replace lists but merge objects, so every key of the
// object is sent, absent ones as null (which also lets CRD defaults apply again).
func fullObjectPatch(v any, keys []string, path ...string) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	obj := map[string]any{}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, err
	}
	for _, k := range keys {
		if _, ok := obj[k]; !ok {
			obj[k] = nil
		}
	}
	var patch any = obj
	for i := len(path) - 1; i >= 0; i-- {
		patch = map[string]any{path[i]: patch}
	}
	return json.Marshal(patch)
}

// currentIndex reads the SearchIndex from the Kubernetes API, past the informer cache.
func (s *Server) currentIndex(c *fiber.Ctx, idx *searchv1alpha1.SearchIndex) (*searchv1alpha1.SearchIndex, error) {
	if s.writer == nil {
		return nil, errorf(fiber.StatusServiceUnavailable, "settings cannot be written: no Kubernetes client configured")
	}
	obj := &searchv1alpha1.SearchIndex{}
	if err := s.writer.Get(c.UserContext(), client.ObjectKeyFromObject(idx), obj); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, errorf(fiber.StatusNotFound, "index not found")
		}
		return nil, fmt.Errorf("reading index %s/%s: %w", idx.Namespace, idx.Name, err)
	}
	return obj, nil
}

// patchIndex applies a merge patch to the SearchIndex through the Kubernetes API, as
// field manager aisle-apiserver; with dryRun the API server validates without storing.
func (s *Server) patchIndex(c *fiber.Ctx, idx *searchv1alpha1.SearchIndex, patch []byte, dryRun bool) (*searchv1alpha1.SearchIndex, error) {
	if s.writer == nil {
		return nil, errorf(fiber.StatusServiceUnavailable, "settings cannot be written: no Kubernetes client configured")
	}
	obj := &searchv1alpha1.SearchIndex{}
	obj.Namespace, obj.Name = idx.Namespace, idx.Name
	opts := []client.PatchOption{client.FieldOwner(FieldManager)}
	if dryRun {
		opts = append(opts, client.DryRunAll)
	}
	err := s.writer.Patch(c.UserContext(), obj, client.RawPatch(types.MergePatchType, patch), opts...)
	return obj, err
}

// invalidSettings merges the local problems with the API server's verdict into one 400
// naming each bad field; other errors pass through.
func invalidSettings(local []indexsettings.FieldError, err error) error {
	msgs := make([]string, 0, len(local))
	for _, p := range local {
		msgs = append(msgs, p.String())
	}
	var status apierrors.APIStatus
	if errors.As(err, &status) && apierrors.IsInvalid(err) {
		msgs = append(msgs, kubeCauses(status, "spec.settings.", "spec.publicAccess.policy.")...)
		err = nil
	}
	if err != nil {
		if apierrors.IsNotFound(err) {
			return errorf(fiber.StatusNotFound, "index not found")
		}
		return err
	}
	if len(msgs) == 0 {
		return nil
	}
	return errorf(fiber.StatusBadRequest, "invalid settings: "+strings.Join(msgs, "; "))
}

// kubeCauses rewords the field causes of a Kubernetes 422 in the API's field names.
func kubeCauses(status apierrors.APIStatus, prefixes ...string) []string {
	st := status.Status()
	if st.Details == nil || len(st.Details.Causes) == 0 {
		return []string{st.Message}
	}
	out := make([]string, 0, len(st.Details.Causes))
	for _, cause := range st.Details.Causes {
		field := cause.Field
		msg := cause.Message
		for _, p := range prefixes {
			msg = strings.ReplaceAll(msg, p, "")
			field = strings.TrimPrefix(field, p)
		}
		msg = strings.TrimPrefix(msg, field+" in body ")
		out = append(out, field+": "+msg)
	}
	return out
}
