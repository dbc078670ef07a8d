package catalog

import (
	"testing"

	"github.com/aislehq/aisle/internal/catalog/catalogtest"
)

// What the external tests of this directory (package catalog_test) need of the package:
// they drive staged replacements and the janitor, which import it, through its swap.

// SetCrashPoint makes the swap call fn after each step that leaves state behind.
func SetCrashPoint(fn func(step string)) { crashPoint = fn }

var (
	StartBackend  = startBackend
	NewTarget     = newTarget
	CrashRecords  = crashRecords
	CountMatching = countMatching
)

// ReplicaPair is newReplicaPair's pair of services on one engine.
type ReplicaPair struct {
	A, B   *Service
	TraceA *catalogtest.Tracer
	Target Target
}

// NewReplicaPair is newReplicaPair.
func NewReplicaPair(t *testing.T, name string, cfgA, cfgB Config) ReplicaPair {
	p := newReplicaPair(t, name, cfgA, cfgB)
	return ReplicaPair{A: p.a, B: p.b, TraceA: p.traceA, Target: p.tg}
}
