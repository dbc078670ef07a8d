package yamlrest_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestYAMLRest(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "yamlrest")
}
