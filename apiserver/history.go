package apiserver

import (
	"errors"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"sigs.k8s.io/controller-runtime/pkg/client"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/history"
	"github.com/aislehq/aisle/internal/tenancy"
)

// errBadVersion: the path's version is not a version number.
var errBadVersion = errors.New("version must be a positive integer")

// historyRoutes declares the versions of the settings and of the rules: reads with
// either key, restores with a write key. They come before /rules/:ruleId, which would
// take GET /rules/history (objectID "history" is reserved for it).
func (s *Server) historyRoutes(idx keyedGroup) {
	idx.add(fiber.MethodGet, "/config/history", tenancy.Either, s.needSearch, s.getConfigHistory)
	idx.add(fiber.MethodPost, "/config/history/:version/restore", writeScope, s.needSearch, s.restoreConfig)
	idx.add(fiber.MethodGet, "/rules/history", tenancy.Either, s.needSearch, s.getRulesHistory)
	idx.add(fiber.MethodPost, "/rules/history/:version/restore", writeScope, s.needSearch, s.restoreRules)
}

// historyResponse is the answer of GET .../history: the last versions, newest first.
type historyResponse struct {
	Versions []history.Version `json:"versions"`
}

// restoreConfigResponse is PUT /config's answer, with the version made and the one put
// back.
type restoreConfigResponse struct {
	putConfigResponse
	Version  int64 `json:"version"`
	Restored int64 `json:"restored"`
}

// getConfigHistory answers GET /config/history.
func (s *Server) getConfigHistory(c *fiber.Ctx) error {
	versions, err := s.settings.History(c.UserContext(), client.ObjectKeyFromObject(tenantFrom(c.UserContext()).index))
	if err != nil {
		return err
	}
	return c.JSON(historyResponse{Versions: versions})
}

// restoreConfig answers POST /config/history/{version}/restore: PUT /config with the
// settings of that version.
func (s *Server) restoreConfig(c *fiber.Ctx) error {
	n, err := versionParam(c)
	if err != nil {
		return err
	}
	t := tenantFrom(c.UserContext())
	w, err := s.settings.RestoreSettings(c.UserContext(), client.ObjectKeyFromObject(t.index), n, t.principal.KeyName)
	if err != nil {
		return err
	}
	res := restoreConfigResponse{putConfigResponse: configWritten(w.Index, w.Changes.Applied, w.Changes.Rebuilt), Version: w.Version, Restored: n}
	return c.JSON(res)
}

// getRulesHistory answers GET /rules/history.
func (s *Server) getRulesHistory(c *fiber.Ctx) error {
	versions, err := s.search.Rules().History(c.UserContext(), rulesTarget(c).Names)
	if err != nil {
		return err
	}
	return c.JSON(historyResponse{Versions: versions})
}

// restoreRules answers POST /rules/history/{version}/restore: PUT /rules with the rules
// of that version.
func (s *Server) restoreRules(c *fiber.Ctx) error {
	n, err := versionParam(c)
	if err != nil {
		return err
	}
	v, err := s.search.Rules().Restore(c.UserContext(), rulesTarget(c), n)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"version": v, "restored": n})
}

func versionParam(c *fiber.Ctx) (int64, error) {
	n, err := strconv.ParseInt(c.Params("version"), 10, 64)
	if err != nil || n < 1 {
		return 0, errBadVersion
	}
	return n, nil
}

// configWritten is the answer of a settings write.
func configWritten(idx *searchv1alpha1.SearchIndex, applied, rebuilt []string) putConfigResponse {
	res := putConfigResponse{
		configResponse: configResponse{settingsBody: settingsOf(idx.Spec.Settings), Rebuild: rebuildOf(idx.Status.Rebuild)},
		Applied:        applied,
		Rebuilt:        rebuilt,
	}
	if len(rebuilt) > 0 {
		res.Rebuild = &rebuildBody{State: searchv1alpha1.RebuildPending}
	}
	return res
}
