package apiserver

import (
	"context"
	"encoding/json"
	"log/slog"
	"mime"
	"slices"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

type loggerKey struct{}

// loggerFrom returns the request's logger, or the default one outside a request.
func loggerFrom(ctx context.Context) *slog.Logger {
	if l, ok := ctx.Value(loggerKey{}).(*slog.Logger); ok {
		return l
	}
	return slog.Default()
}

// withRequestContext gives the handler a context carrying a logger tagged with the
// request ID, and logs one access line per request.
func withRequestContext(base *slog.Logger) fiber.Handler {
	return func(c *fiber.Ctx) error {
		start := time.Now()
		id, _ := c.Locals("requestid").(string)
		logger := base.With(slog.String("request_id", id))
		c.SetUserContext(context.WithValue(c.UserContext(), loggerKey{}, logger))
		err := c.Next()
		if err != nil {
			// Run the error handler now so the access line shows the status sent.
			if herr := c.App().ErrorHandler(c, err); herr != nil {
				_ = c.SendStatus(fiber.StatusInternalServerError)
			}
		}
		logger.InfoContext(c.UserContext(), "request",
			slog.String("method", c.Method()),
			slog.String("path", c.Path()),
			slog.Int("status", c.Response().StatusCode()),
			slog.Duration("duration", time.Since(start)),
		)
		return nil
	}
}

// requireJSON refuses bodies that are not declared as application/json (415).
func requireJSON(c *fiber.Ctx) error {
	if len(c.Body()) == 0 && c.Get(fiber.HeaderContentLength, "0") == "0" {
		return c.Next()
	}
	mediaType, _, err := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
	if err != nil || mediaType != fiber.MIMEApplicationJSON {
		return errNotJSON
	}
	return c.Next()
}

// Path prefixes: keyed endpoints, and the browsers' unauthenticated ones.
const (
	keyedPrefix  = "/api/teams/"
	publicPrefix = "/api/public/"
)

// unknownMethodsAsJSON answers a method no route can have (PROPFIND) with 405 and
// {"error"}, as every failure: Fiber answers it before any middleware, in plain text.
func unknownMethodsAsJSON(app *fiber.App) fasthttp.RequestHandler {
	next := app.Handler()
	methods := app.Config().RequestMethods
	body, _ := json.Marshal(fiber.Map{"error": fiberMessage(fiber.ErrMethodNotAllowed)})
	return func(ctx *fasthttp.RequestCtx) {
		if slices.Contains(methods, string(ctx.Method())) {
			next(ctx)
			return
		}
		ctx.SetStatusCode(fiber.StatusMethodNotAllowed)
		ctx.SetContentType(fiber.MIMEApplicationJSON)
		ctx.SetBody(body)
	}
}
