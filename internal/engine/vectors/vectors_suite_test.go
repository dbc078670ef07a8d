package vectors

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestVectors(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Vectors Suite")
}
