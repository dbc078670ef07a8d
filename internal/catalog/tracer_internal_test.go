package catalog

import (
	"testing"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/catalog/catalogtest"
)

// tracer records the requests a client sends to the backend (catalogtest.Tracer).
type tracer = catalogtest.Tracer

var (
	startEngine  = catalogtest.StartEngine
	tracedClient = catalogtest.TracedClient
)

// replicaPair is two services on one engine, as two API server replicas, each with its
// tracer, and an index named name.
type replicaPair struct {
	a, b           *Service
	traceA, traceB *tracer
	tg             Target
}

func newReplicaPair(t *testing.T, name string, cfgA, cfgB Config) replicaPair {
	t.Helper()
	url := startEngine(t)
	p := replicaPair{traceA: &tracer{}, traceB: &tracer{}}
	p.a, p.b = New(tracedClient(t, url, p.traceA), cfgA), New(tracedClient(t, url, p.traceB), cfgB)
	p.tg = newTarget(t, p.a.es, "pair", name, searchv1alpha1.IndexSettings{})
	return p
}
