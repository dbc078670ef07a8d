package apiserver

import (
	"context"
	"errors"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/aislehq/aisle/internal/tenancy"
)

// bodyLimitFor sizes a request's body limit from its header, before the body is read:
// fasthttp reads a whole body before any handler runs, so an endpoint refusing a body in
// its handler would have let anyone make the server buffer the app's limit (sized for
// PUT /records) first. Only a keyed endpoint takes the app's limit, and only from a key
// it accepts: the key, its workspace, scope and index are checked here from the header,
// with authorize's function. A request with a key refused is sized as one without a key:
// fasthttp stops at the Content-Length of a larger body without reading it, and
// answerKeyRefusal answers the refusal; a smaller one is read, as a public search's is,
// and authorize refuses it. Browser events take their limit; every other path (public
// search and lists, the Events page, health, metrics, and a keyed path no route takes) a
// search request's, and so does a secured key (a browser's). No limit exceeds the app's.
func (s *Server) bodyLimitFor(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
	return fasthttp.RequestConfig{MaxRequestBodySize: min(s.limitOf(h), s.bodyLimit)}
}

func (s *Server) limitOf(h *fasthttp.RequestHeader) int {
	raw, path, ok := requestPaths(h)
	if !ok {
		return PublicBodyLimit
	}
	if t, keyed := s.keyedRoutes.find(string(h.Method()), raw); keyed {
		// A secured key is held by a browser: it takes a browser's limit.
		if p, err := s.keyFromHeader(h, t); err == nil && p.Restriction == nil {
			return s.bodyLimit
		}
	}
	if strings.HasPrefix(path, publicPrefix) && strings.HasSuffix(path, "/events") {
		return PublicEventsBodyLimit
	}
	return PublicBodyLimit
}

// requestPaths returns the path of h's request as the router matches it (raw, not
// unescaped) and normalized; ok is false when its URI cannot be parsed.
func requestPaths(h *fasthttp.RequestHeader) (raw, normalized string, ok bool) {
	uri := fasthttp.AcquireURI()
	defer fasthttp.ReleaseURI(uri)
	if err := uri.Parse(nil, h.RequestURI()); err != nil {
		return "", "", false
	}
	return string(uri.PathOriginal()), string(uri.Path()), true
}

// keyFromHeader is what authorize (authorizeWorkspace for an endpoint under the
// workspace prefix) would answer the request's key for target t, decided from the
// header alone, with the same function.
func (s *Server) keyFromHeader(h *fasthttp.RequestHeader, t keyedTarget) (tenancy.Principal, error) {
	header := string(h.Peek(fiber.HeaderAuthorization))
	if t.index == "" {
		return s.registry.AuthorizeWorkspace(context.Background(), header, t.workspace, t.need)
	}
	p, _, err := s.registry.Authorize(context.Background(), header, t.workspace, t.index, t.need)
	return p, err
}

// refusalFromHeader is the refusal of a keyed request's key, read from its header; nil
// for an accepted key or a request no keyed route takes.
func (s *Server) refusalFromHeader(h *fasthttp.RequestHeader) error {
	raw, _, ok := requestPaths(h)
	t, keyed := s.keyedRoutes.find(string(h.Method()), raw)
	if !ok || !keyed {
		return nil
	}
	_, err := s.keyFromHeader(h, t)
	return err
}

// answerKeyRefusal wraps the handler of the requests fasthttp could not read (next): a
// body over its limit from a key its endpoint refuses is answered with the refusal (the
// 401, 403 or 404 authorize gives), any other failure by next (Fiber's 413). The key is
// read again from the same header: one that became valid since bodyLimitFor refused it
// gets the 413, and a retry passes.
func (s *Server) answerKeyRefusal(next func(*fasthttp.RequestCtx, error)) func(*fasthttp.RequestCtx, error) {
	return func(ctx *fasthttp.RequestCtx, err error) {
		var refusal error
		if errors.Is(err, fasthttp.ErrBodyTooLarge) {
			refusal = s.refusalFromHeader(&ctx.Request.Header)
		}
		if refusal == nil {
			next(ctx, err)
			return
		}
		c := s.app.AcquireCtx(ctx)
		defer s.app.ReleaseCtx(c)
		if herr := handleError(c, refusal); herr != nil {
			_ = c.SendStatus(fiber.StatusInternalServerError)
		}
	}
}
