package esspec_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/test/esspec"
)

var spec *esspec.Spec

func TestESSpec(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Elasticsearch REST API specification")
}

var _ = BeforeSuite(func() {
	var err error
	spec, err = esspec.Default()
	Expect(err).NotTo(HaveOccurred())
})
