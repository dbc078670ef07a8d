package apiserver

import (
	"crypto/sha256"
	"mime"
	"net/url"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/utils"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/events"
)

// eventRoutes declares the event endpoints: keyed under the index prefix, and the
// browsers' public twin.
func (s *Server) eventRoutes(idx keyedGroup) {
	idx.add(fiber.MethodPost, "/events", eventsScope, s.needEvents, s.keyLimit, s.postEvents)
	idx.add(fiber.MethodPost, "/past-orders", eventsScope, s.needEvents, s.keyLimit, s.postPastOrders)

	public := s.app.Group("/api/public/indexes/:publicId")
	public.Options("/events", s.publicIndex, s.publicPreflight)
	public.Post("/events", s.publicIndex, s.needEvents, s.publicEvents)
}

// PublicEventsBodyLimit bounds a browser's event request: 100 events, carts of a few
// dozen items each, fit with room to spare; the client sends under 60 KiB.
const PublicEventsBodyLimit = 1 << 20

// needEvents answers 503 when the server runs without a search backend.
func (s *Server) needEvents(c *fiber.Ctx) error {
	if s.events == nil {
		return errNoBackend
	}
	return c.Next()
}

// keyLimit holds an API key to its event requests a minute.
func (s *Server) keyLimit(c *fiber.Ctx) error {
	p := tenantFrom(c.UserContext()).principal
	key := sha256.Sum256([]byte(p.Workspace + "\x00" + p.KeyName))
	if ok, wait := s.eventLimits.keys.take(key); !ok {
		return limited(c, wait)
	}
	return c.Next()
}

// postEvents answers POST /events: events sent by the shop's servers.
func (s *Server) postEvents(c *fiber.Ctx) error {
	raw, err := events.DecodeEvents(c.Body(), events.MaxServerEvents)
	if err != nil {
		return err
	}
	idx := tenantFrom(c.UserContext()).index
	res, err := s.events.Record(c.UserContext(), events.Batch{Target: target(idx), Source: events.FromServer, Events: raw})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(res)
}

// postPastOrders answers POST /past-orders: orders up to 400 days old.
func (s *Server) postPastOrders(c *fiber.Ctx) error {
	raw, err := events.DecodeOrders(c.Body())
	if err != nil {
		return err
	}
	idx := tenantFrom(c.UserContext()).index
	res, err := s.events.RecordPastOrders(c.UserContext(), target(idx), raw)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(res)
}

// publicEvents answers POST /api/public/indexes/{publicId}/events: events sent by the
// shop's pages, as text/plain (no preflight, and what sendBeacon sends) or JSON.
// Crawlers and automation get the same answer, and their events are only counted.
func (s *Server) publicEvents(c *fiber.Ctx) error {
	idx := c.Locals(publicKey{}).(*searchv1alpha1.SearchIndex)
	ip, ua := utils.CopyString(c.IP()), utils.CopyString(c.Get(fiber.HeaderUserAgent))
	if ok, wait := s.eventLimits.visitors.take(visitorKey(idx.Status.PublicID, ip, ua)); !ok {
		return limited(c, wait)
	}
	if err := requireEventBody(c); err != nil {
		return err
	}
	raw, err := events.DecodeEvents(c.Body(), events.MaxBrowserEvents)
	if err != nil {
		return err
	}
	browser := events.Browser{
		IP: ip, UserAgent: ua, Drop: events.DropReason(ua), Device: events.Device(ua),
		Country: s.countries.Of(c.Get(s.countries.Header), ip),
		Site:    siteOf(c.Get(fiber.HeaderOrigin)),
	}
	res, err := s.events.Record(c.UserContext(), events.Batch{Target: target(idx), Source: events.FromBrowser, Events: raw, Browser: browser})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(res)
}

// requireEventBody takes browser events as text/plain or application/json (415 else).
func requireEventBody(c *fiber.Ctx) error {
	mediaType, _, err := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
	if err != nil || (mediaType != fiber.MIMETextPlain && mediaType != fiber.MIMEApplicationJSON) {
		return errEventsNotText
	}
	return nil
}

// siteOf is the host of an allowed Origin: the originating site.
func siteOf(origin string) string {
	u, err := url.Parse(origin)
	if err != nil {
		return ""
	}
	return u.Host
}

// target names the SearchIndex events are recorded for.
func target(idx *searchv1alpha1.SearchIndex) events.Target {
	return events.Target{
		Names: esnames.For(idx.Namespace, idx.Name), UID: string(idx.UID),
		CountBrowserOrders: idx.Spec.Settings.CountBrowserOrders,
	}
}
