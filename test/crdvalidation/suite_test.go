package crdvalidation

import (
	"context"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/aislehq/aisle/test/envtestenv"
)

// The CRDs' OpenAPI schemas and CEL rules are enforced by kube-apiserver itself, so
// these specs run against a real one with the generated CRDs installed.
var (
	testEnv   *envtest.Environment
	k8sClient client.Client
	ctx       context.Context
)

func TestCRDValidation(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "CRD validation")
}

var _ = BeforeSuite(func() {
	ctx = context.Background()
	var err error
	testEnv, err = envtestenv.New()
	Expect(err).NotTo(HaveOccurred())
	cfg, err := testEnv.Start()
	Expect(err).NotTo(HaveOccurred())
	k8sClient, err = client.New(cfg, client.Options{Scheme: testEnv.Scheme})
	Expect(err).NotTo(HaveOccurred())
	for _, ns := range []string{"demo", "shop"} {
		Expect(k8sClient.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})).To(Succeed())
	}
})

var _ = AfterSuite(func() {
	if testEnv != nil {
		Expect(testEnv.Stop()).To(Succeed())
	}
})
