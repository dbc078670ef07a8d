package main

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestAisleCommand(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "aisle command")
}
