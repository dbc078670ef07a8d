package catalog_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The Ginkgo specs of the catalog service; its older tests are plain Go tests.
func TestCatalogSpecs(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "catalog")
}
