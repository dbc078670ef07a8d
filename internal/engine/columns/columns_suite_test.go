package columns

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestColumns(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Columns Suite")
}
