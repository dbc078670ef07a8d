package httpapi

import (
	"net/http"
	"sort"
	"strings"
)

// route maps method and path segments to a handler. It returns the allowed methods when
// the path exists under another method (ES answers 405 then).
func (a *API) route(q *req) (*handler, string) {
	m := q.r.Method
	table := a.routesFor(q.parts)
	if hd, ok := table[m]; ok {
		return hd, ""
	}
	if m == http.MethodHead {
		if hd, ok := table["GET"]; ok {
			return hd, ""
		}
	}
	if len(table) == 0 {
		return &handler{fn: func(q *req) (int, any, error) { return 0, nil, noHandler(q) }}, ""
	}
	var allowed []string
	for k := range table {
		allowed = append(allowed, k)
	}
	sort.Strings(allowed)
	return nil, strings.Join(allowed, ", ")
}

type methods map[string]*handler

func (a *API) routesFor(p []string) methods {
	n := len(p)
	if n == 0 {
		return methods{"GET": h(a.info), "HEAD": h(a.info)}
	}
	if strings.HasPrefix(p[0], "_") && p[0] != "_all" {
		if m := a.globalRoutes(p); m != nil || n > 1 {
			return m
		}
	}
	idx := p[0]
	if n == 1 {
		return methods{
			"PUT":    h(a.createIndex(idx), createIndexParams...),
			"DELETE": h(a.deleteIndex(idx), deleteIndexParams...),
			"HEAD":   h(a.existsIndex(idx), existsIndexParams...),
			"GET":    h(a.getIndex(idx), getIndexParams...),
		}
	}
	switch p[1] {
	case "_doc":
		if n == 2 {
			return methods{"POST": h(a.indexDoc(idx, "", false), docWriteParams...)}
		}
		if n == 3 {
			return methods{
				"PUT": h(a.indexDoc(idx, p[2], false), docWriteParams...), "POST": h(a.indexDoc(idx, p[2], false), docWriteParams...),
				"GET": h(a.getDoc(idx, p[2], false), getParams...), "HEAD": h(a.getDoc(idx, p[2], false), getParams...),
				"DELETE": h(a.deleteDoc(idx, p[2]), deleteDocParams...),
			}
		}
	case "_create":
		if n == 3 {
			return methods{"PUT": h(a.indexDoc(idx, p[2], true), docWriteParams...), "POST": h(a.indexDoc(idx, p[2], true), docWriteParams...)}
		}
	case "_update":
		if n == 3 {
			return methods{"POST": h(a.update(idx, p[2]), updateParams...)}
		}
	case "_source":
		if n == 3 {
			return methods{"GET": h(a.getDoc(idx, p[2], true), getParams...), "HEAD": h(a.getDoc(idx, p[2], true), getParams...)}
		}
	}
	if n == 2 {
		return a.indexScopedRoutes(idx, p[1])
	}
	if n == 3 {
		switch p[1] {
		case "_alias", "_aliases":
			return methods{
				"PUT": h(a.putAlias(idx, p[2]), ackParams...), "POST": h(a.putAlias(idx, p[2]), ackParams...),
				"DELETE": h(a.deleteAlias(idx, p[2]), ackParams...),
				"GET":    h(a.getAlias(idx, p[2]), aliasReadParams...),
				"HEAD":   h(a.getAlias(idx, p[2]), aliasReadParams...),
			}
		case "_settings":
			return methods{"GET": h(a.getSettings(idx, p[2]), getSettingsParams...)}
		case "_mapping":
			return methods{"GET": h(a.getMapping(idx), getMappingParams...)}
		}
	}
	return nil
}

func (a *API) indexScopedRoutes(idx, op string) methods {
	switch op {
	case "_search":
		return methods{"GET": h(a.search(idx), searchParams...), "POST": h(a.search(idx), searchParams...)}
	case "_msearch":
		return methods{"GET": h(a.msearch(idx), msearchParams...), "POST": h(a.msearch(idx), msearchParams...)}
	case "_count":
		return methods{"GET": h(a.count(idx), countParams...), "POST": h(a.count(idx), countParams...)}
	case "_bulk":
		return methods{"POST": h(a.bulk(idx), bulkParams...), "PUT": h(a.bulk(idx), bulkParams...)}
	case "_mget":
		return methods{"GET": h(a.mget(idx), mgetParams...), "POST": h(a.mget(idx), mgetParams...)}
	case "_delete_by_query":
		return methods{"POST": h(a.deleteByQuery(idx), dbqParams...)}
	case "_refresh":
		return methods{"POST": h(a.refresh(idx), resolveParams...), "GET": h(a.refresh(idx), resolveParams...)}
	case "_mapping", "_mappings":
		return methods{
			"GET": h(a.getMapping(idx), getMappingParams...),
			"PUT": h(a.putMapping(idx), putMappingParams...), "POST": h(a.putMapping(idx), putMappingParams...),
		}
	case "_settings":
		return methods{
			"GET": h(a.getSettings(idx, ""), getSettingsParams...),
			"PUT": h(a.putSettings(idx), putSettingsParams...),
		}
	case "_alias", "_aliases":
		return methods{"GET": h(a.getAlias(idx, ""), aliasReadParams...)}
	case "_analyze":
		return methods{"GET": h(a.analyze(idx), analyzeParams...), "POST": h(a.analyze(idx), analyzeParams...)}
	case "_knn_search":
		return methods{"GET": h(a.knnSearch(idx), "routing"), "POST": h(a.knnSearch(idx), "routing")}
	case "_stats":
		return methods{"GET": h(a.stats(idx), statsParams...)}
	case "_pit":
		return methods{"POST": h(a.openPIT(idx), openPITParams...)}
	}
	return nil
}

func (a *API) globalRoutes(p []string) methods {
	n := len(p)
	switch p[0] {
	case "_search":
		if n == 1 {
			return methods{"GET": h(a.search(""), searchParams...), "POST": h(a.search(""), searchParams...)}
		}
	case "_msearch":
		if n == 1 {
			return methods{"GET": h(a.msearch(""), msearchParams...), "POST": h(a.msearch(""), msearchParams...)}
		}
	case "_count":
		if n == 1 {
			return methods{"GET": h(a.count(""), countParams...), "POST": h(a.count(""), countParams...)}
		}
	case "_bulk":
		if n == 1 {
			return methods{"POST": h(a.bulk(""), bulkParams...), "PUT": h(a.bulk(""), bulkParams...)}
		}
	case "_mget":
		if n == 1 {
			return methods{"GET": h(a.mget(""), mgetParams...), "POST": h(a.mget(""), mgetParams...)}
		}
	case "_refresh":
		if n == 1 {
			return methods{"POST": h(a.refresh(""), resolveParams...), "GET": h(a.refresh(""), resolveParams...)}
		}
	case "_aliases":
		if n == 1 {
			return methods{"POST": h(a.updateAliases, ackParams...), "GET": h(a.getAlias("", ""), aliasReadParams...)}
		}
	case "_alias":
		if n == 1 {
			return methods{"GET": h(a.getAlias("", ""), aliasReadParams...)}
		}
		if n == 2 {
			return methods{"GET": h(a.getAlias("", p[1]), aliasReadParams...), "HEAD": h(a.getAlias("", p[1]), aliasReadParams...)}
		}
	case "_mapping", "_mappings":
		if n == 1 {
			return methods{"GET": h(a.getMapping(""), getMappingParams...)}
		}
	case "_settings":
		if n == 1 {
			return methods{"GET": h(a.getSettings("", ""), getSettingsParams...),
				"PUT": h(a.putSettings(""), putSettingsParams...)}
		}
		if n == 2 {
			return methods{"GET": h(a.getSettings("", p[1]), getSettingsParams...)}
		}
	case "_stats":
		if n == 1 {
			return methods{"GET": h(a.stats(""), "level")}
		}
	case "_analyze":
		if n == 1 {
			return methods{"GET": h(a.analyze(""), analyzeParams...), "POST": h(a.analyze(""), analyzeParams...)}
		}
	case "_pit":
		if n == 1 {
			return methods{"DELETE": h(a.closePIT)}
		}
	case "_cluster":
		if n >= 2 && p[1] == "health" {
			idx := ""
			if n == 3 {
				idx = p[2]
			}
			return methods{"GET": h(a.health(idx), healthParams...)}
		}
	}
	return nil
}
