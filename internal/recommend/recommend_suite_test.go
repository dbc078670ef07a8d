package recommend

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The specs of this package hold its pure parts: parameters, queries and rankings. The
// reads are held by the API server's specs, through the API against the engine.
func TestRecommend(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Recommendation lists")
}
