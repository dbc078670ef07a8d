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
	backendUp = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "aisle_operator_backend_up",
		Help: "1 when the last call of the operator to the search backend got an answer, else 0.",
	})
)

func init() {
	metrics.Registry.MustRegister(keysIssued, backendUp)
}
