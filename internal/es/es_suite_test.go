package es_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestES(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "es")
}
