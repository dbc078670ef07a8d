package controllers

import (
	"github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
)

var (
	keysIssued = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "aisle_operator_api_keys_issued_total",
		Help: "API keys issued, by reason (Initial, Replaced, Requested, Scheduled).",
	}, []string{"reason"})
	backendUnavailable = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "aisle_operator_backend_unavailable_total",
		Help: "Reconciles that found the search backend unavailable.",
	})
)

func init() {
	metrics.Registry.MustRegister(keysIssued, backendUnavailable)
}
