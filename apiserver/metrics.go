package apiserver

import (
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/gofiber/fiber/v2/utils"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

type httpMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func newHTTPMetrics(reg prometheus.Registerer) *httpMetrics {
	m := &httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "aisle_http_requests_total",
			Help: "HTTP requests by method, route and status.",
		}, []string{"method", "route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "aisle_http_request_duration_seconds",
			Help:    "HTTP request latency by method and route.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2, 14),
		}, []string{"method", "route"}),
	}
	reg.MustRegister(m.requests, m.duration)
	return m
}

// middleware records each request under its route pattern, never its raw path, so
// that label cardinality stays bounded.
func (m *httpMetrics) middleware(c *fiber.Ctx) error {
	start := time.Now()
	err := c.Next()
	// Copies: Fiber reuses the memory of these strings for the next request, and the
	// label values live on in the metric vectors.
	route, method := utils.CopyString(c.Route().Path), utils.CopyString(c.Method())
	m.requests.WithLabelValues(method, route, strconv.Itoa(c.Response().StatusCode())).Inc()
	m.duration.WithLabelValues(method, route).Observe(time.Since(start).Seconds())
	return err
}

func metricsHandler(g prometheus.Gatherer) fiber.Handler {
	return adaptor.HTTPHandler(promhttp.HandlerFor(g, promhttp.HandlerOpts{}))
}
