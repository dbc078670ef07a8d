package apiserver

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/utils"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/search"
	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/internal/strictjson"
	"github.com/aislehq/aisle/internal/tenancy"
)

// Several searches in one request: each query names its index (a public ID for
// browsers) and is admitted on its own (its index allowed to the key, or the Origin
// allowed by the index; its rate limits; the plan's monthly searches), then the admitted
// ones run together (one _msearch, search.Service.MultiSearch). The answer holds one
// result per query, in order: a search response, or {error, status} where that query
// failed, whatever the others did.

// Limits of a multi-search.
const (
	MaxQueries       = 50
	MaxPublicQueries = 10
)

// multiSearchBody is a multi-search's body: each query is decoded on its own, so that a
// bad one fails alone.
type multiSearchBody struct {
	Queries []json.RawMessage `json:"queries"`
}

// keyedQuery is one query of the keyed multi-search.
type keyedQuery struct {
	Index string `json:"index"`
	searchquery.Request
}

// publicQuery is one query of the public multi-search.
type publicQuery struct {
	PublicID string `json:"publicId"`
	searchquery.Request
}

// admitted is a query admitted to a multi-search, with its index for the search log.
type admitted struct {
	search.Query
	index *searchv1alpha1.SearchIndex
}

// queryError is the result of a query that failed.
type queryError struct {
	Error  string `json:"error"`
	Status int    `json:"status"`
}

// multiSearchRoutes declares the multi-search, keyed and public.
func (s *Server) multiSearchRoutes() {
	s.workspaceKeyed().add(fiber.MethodPost, "/multi-search", securedSearchScope, s.needSearch, s.postMultiSearch)
	s.app.Options("/api/public/multi-search", s.publicOrigin, s.publicPreflight)
	s.app.Post("/api/public/multi-search", s.publicOrigin, s.needSearch, s.publicMultiSearch)
}

// postMultiSearch answers POST /multi-search: up to 50 queries, each checked against the
// key as POST /search is (a secured key's indexes, origin and restriction included).
func (s *Server) postMultiSearch(c *fiber.Ctx) error {
	queries, err := bindQueries(c.Body(), MaxQueries)
	if err != nil {
		return err
	}
	p, ws := tenantFrom(c.UserContext()).principal, utils.CopyString(c.Params("workspaceId"))
	origin := utils.CopyString(c.Get(fiber.HeaderOrigin))
	return s.multiSearch(c, queries, false, func(ctx context.Context, raw json.RawMessage) (admitted, error) {
		return s.admitKeyed(ctx, p, ws, origin, raw)
	})
}

// admitKeyed decodes one keyed query and admits it as authorize and postSearch admit a
// search: its index allowed to the key with search (and, for a secured key sent by a
// page, allowing its origin), counted against the plan, under the key's access.
func (s *Server) admitKeyed(ctx context.Context, p tenancy.Principal, ws, origin string, raw json.RawMessage) (admitted, error) {
	var q keyedQuery
	if err := strictjson.Decode(raw, &q); err != nil {
		return admitted{}, err
	}
	if q.Index == "" {
		return admitted{}, errIndexRequired
	}
	idx, err := s.registry.AuthorizeIndex(ctx, p, ws, q.Index, securedSearchScope)
	if err == nil {
		idx, err = s.fence.Settled(ctx, idx)
	}
	if err != nil {
		return admitted{}, err
	}
	if err := checkSecuredOrigin(p, idx, origin); err != nil {
		return admitted{}, err
	}
	if err := s.countSearch(ctx, idx); err != nil {
		return admitted{}, err
	}
	access := searchAccess(tenant{principal: p, index: idx})
	return admitted{search.Query{Alias: esnames.For(idx.Namespace, idx.Name).Alias(), Access: access, Request: q.Request}, idx}, nil
}

// bindQueries reads a multi-search's body: 1 to limit queries, each still raw.
func bindQueries(body []byte, limit int) ([]json.RawMessage, error) {
	var b multiSearchBody
	if err := strictjson.Decode(body, &b); err != nil {
		return nil, err
	}
	if len(b.Queries) == 0 || len(b.Queries) > limit {
		return nil, fmt.Errorf("%w: needs 1 to %d queries", errQueries, limit)
	}
	return b.Queries, nil
}

// multiSearch admits each query with admit, runs the admitted ones together, answers
// each query's result in its place and records the answered ones in the search log.
func (s *Server) multiSearch(c *fiber.Ctx, raws []json.RawMessage, public bool, admit func(context.Context, json.RawMessage) (admitted, error)) error {
	ctx := c.UserContext()
	results := make([]any, len(raws))
	var admits []admitted
	var queries []search.Query
	var at []int
	var fallbacks []bool
	for i, raw := range raws {
		q, err := admit(ctx, raw)
		if err != nil {
			results[i] = failed(ctx, err)
			continue
		}
		var fallback bool
		q.Request, fallback = s.embedQuery(ctx, q.index, q.Request)
		admits, queries, at, fallbacks = append(admits, q), append(queries, q.Query), append(at, i), append(fallbacks, fallback)
	}
	answered := s.search.MultiSearch(ctx, queries)
	for k, r := range answered {
		r.Response.SemanticFallback = fallbacks[k]
		results[at[k]] = r.Response
		if r.Err != nil {
			results[at[k]] = failed(ctx, r.Err)
		}
	}
	if err := c.JSON(fiber.Map{"results": results}); err != nil {
		return err
	}
	for k, r := range answered {
		if r.Err == nil {
			s.logSearch(admits[k].index, admits[k].Request, r.Response, public)
		}
	}
	return nil
}

// failed is the result of a query that failed with err, as the error handler would
// answer it alone.
func failed(ctx context.Context, err error) queryError {
	status, message := classify(err)
	if status >= http.StatusInternalServerError {
		loggerFrom(ctx).ErrorContext(ctx, "a query of a multi-search failed", slog.Any("error", err))
	}
	return queryError{Error: message, Status: status}
}
