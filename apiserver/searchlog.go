package apiserver

import (
	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/searchlog"
	"github.com/aislehq/aisle/internal/searchquery"
)

// logSearch records an answered search of idx in the search log: it only queues, so it
// never slows or fails the search. Facet value searches are not recorded.
func (s *Server) logSearch(idx *searchv1alpha1.SearchIndex, req searchquery.Request, res searchquery.Response, public bool) {
	s.searchLog.Record(searchlog.Search{
		Index: esnames.For(idx.Namespace, idx.Name), UID: string(idx.UID),
		Q: req.Q, Hits: res.Total, Public: public,
		Filtered: req.Filters != nil || len(req.FacetFilters) > 0,
		Faceted:  len(req.Facets) > 0,
	})
}
