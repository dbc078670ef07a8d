package apiserver

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/utils"

	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/search"
	"github.com/aislehq/aisle/internal/strictjson"
)

// The public multi-search names its indexes by public ID in its body, which a CORS
// preflight does not carry: an Origin that some index allows gets the CORS headers (of
// the preflight and of the answer), and each query is then refused in its place (403)
// when its own index does not allow that origin. An origin no index allows is refused
// whole, without CORS headers, as public search refuses it.

// publicOrigin lets a request through when some index allows its Origin, answering with
// the CORS headers of that origin.
func (s *Server) publicOrigin(c *fiber.Ctx) error {
	err := checkOrigin(c, func(origin string) (bool, error) { return s.registry.OriginAllowed(c.UserContext(), origin) })
	if err != nil {
		return err
	}
	return c.Next()
}

// visitor is who sends a public request, for the rate limits.
type visitor struct {
	origin, ip, userAgent string
}

// publicMultiSearch answers POST /api/public/multi-search: up to 10 queries, each under
// its index's origins, policy and rate limits, as public search; Retry-After says how
// long the longest-limited query waits.
func (s *Server) publicMultiSearch(c *fiber.Ctx) error {
	if err := requireJSONBody(c); err != nil {
		return err
	}
	queries, err := bindQueries(c.Body(), MaxPublicQueries)
	if err != nil {
		return err
	}
	v := visitor{origin: utils.CopyString(c.Get(fiber.HeaderOrigin)), ip: utils.CopyString(c.IP()), userAgent: utils.CopyString(c.Get(fiber.HeaderUserAgent))}
	var wait time.Duration
	err = s.multiSearch(c, queries, true, func(ctx context.Context, raw json.RawMessage) (admitted, error) {
		q, w, err := s.admitPublic(ctx, raw, v)
		wait = max(wait, w)
		return q, err
	})
	if wait > 0 {
		c.Set(fiber.HeaderRetryAfter, retryAfter(wait))
	}
	return err
}

// admitPublic decodes one public query and admits it: its index allowing the visitor's
// origin, within the rate limits (else the wait), counted against the plan, under the
// index's policy.
func (s *Server) admitPublic(ctx context.Context, raw json.RawMessage, v visitor) (admitted, time.Duration, error) {
	var q publicQuery
	if err := strictjson.Decode(raw, &q); err != nil {
		return admitted{}, 0, err
	}
	if q.PublicID == "" {
		return admitted{}, 0, errPublicIDRequired
	}
	idx, err := s.indexByPublicID(ctx, q.PublicID)
	if err != nil {
		return admitted{}, 0, err
	}
	if !allows(idx, v.origin) {
		return admitted{}, 0, errOriginNotAllowed
	}
	if ok, wait := s.limits.allow(q.PublicID, visitorKey(q.PublicID, v.ip, v.userAgent)); !ok {
		return admitted{}, wait, errRateLimited
	}
	if err := s.countSearch(ctx, idx); err != nil {
		return admitted{}, 0, err
	}
	return admitted{search.Query{Alias: esnames.For(idx.Namespace, idx.Name).Alias(), Access: publicAccess(idx), Request: q.Request}, idx}, 0, nil
}
