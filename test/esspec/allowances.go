package esspec

import "github.com/aislehq/aisle/test/conformance/yamlrest"

// allowances are query parameters Elasticsearch 8 takes that a specification file here
// lacks because the file is older than the typed client the product uses
// (go-elasticsearch v8.19; see ../shared/es-conformance/README.md on the mixed versions).
// Each names the evidence; nothing else is allowed beyond the files.
var allowances = map[string]map[string]yamlrest.Param{
	// api/index.json is a 7.8/7.9 version: it still has prefer_v2_templates, which 7.10
	// removed. require_alias came in 7.10 (the index API's "require_alias" query
	// parameter); the 8.19 client sends it with index.RequireAlias.
	"index": {"require_alias": {Type: "boolean"}},
}

// paramOf finds name among the API's parameters, the allowances and the common ones.
func (s *Spec) paramOf(api *yamlrest.API, name string) (yamlrest.Param, bool) {
	if p, ok := api.Params[name]; ok {
		return p, true
	}
	if p, ok := allowances[api.Name][name]; ok {
		return p, true
	}
	p, ok := s.specs.Common[name]
	return p, ok
}
