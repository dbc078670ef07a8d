package apiserver

import (
	"github.com/gofiber/fiber/v2"
	"sigs.k8s.io/controller-runtime/pkg/client"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/settingsstore"
	"github.com/aislehq/aisle/internal/strictjson"
)

// FieldManager is the field manager of the API server's writes to SearchIndexes.
const FieldManager = settingsstore.FieldManager

// putConfigResponse is the settings as stored, with what the change did.
type putConfigResponse struct {
	configResponse
	Applied []string `json:"applied"`
	Rebuilt []string `json:"rebuilt"`
}

// getConfig answers GET /config: the settings and any rebuild in progress, as the
// Kubernetes API holds them now (a client reads what it just wrote, on any replica).
func (s *Server) getConfig(c *fiber.Ctx) error {
	idx, err := s.settings.Fresh(c.UserContext(), tenantFrom(c.UserContext()).index)
	if err != nil {
		return err
	}
	return c.JSON(configResponse{settingsBody: settingsOf(idx.Spec.Settings), Rebuild: rebuildOf(idx.Status.Rebuild)})
}

// putConfig answers PUT /config: replace the settings, and say which changes apply at
// once and which need a rebuild.
func (s *Server) putConfig(c *fiber.Ctx) error {
	var body settingsBody
	if err := strictjson.Decode(c.Body(), &body); err != nil {
		return err
	}
	t := tenantFrom(c.UserContext())
	w, err := s.settings.PutSettings(c.UserContext(), client.ObjectKeyFromObject(t.index), body.settings(), t.principal.KeyName)
	if err != nil {
		return err
	}
	return c.JSON(configWritten(w.Index, w.Changes.Applied, w.Changes.Rebuilt))
}

func (b settingsBody) settings() searchv1alpha1.IndexSettings {
	s := searchv1alpha1.IndexSettings{
		SearchableFields: b.SearchableFields, FilterableFields: b.FilterableFields, FacetFields: b.FacetFields,
		SortableFields: b.SortableFields, Ranking: b.Ranking, CustomRanking: b.CustomRanking, Synonyms: b.Synonyms,
		Language: b.Language, CountBrowserOrders: b.CountBrowserOrders, Recommendations: b.Recommendations,
		Distinct: b.Distinct, EventRanking: b.EventRanking, ReRanking: b.ReRanking.reRanking(), Suggestions: b.Suggestions,
		FacetOrdering: b.FacetOrdering, Embedders: b.Embedders,
	}
	if t := b.TypoTolerance; t != nil {
		s.TypoTolerance = &searchv1alpha1.TypoTolerance{Enabled: t.Enabled, MinWordSizeFor1Typo: t.MinWordSizeFor1Typo,
			MinWordSizeFor2Typos: t.MinWordSizeFor2Typos, OnNumbers: t.OnNumbers,
			DisableOnFields: t.DisableOnFields, DisableOnWords: t.DisableOnWords}
	}
	if w := b.StopWords; w != nil {
		s.StopWords = &searchv1alpha1.StopWords{Enabled: w.Enabled, Words: w.Words, Replace: w.Replace}
	}
	return s
}
