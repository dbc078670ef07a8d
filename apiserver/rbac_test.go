package apiserver_test

import (
	"os"
	"path/filepath"

	"github.com/aislehq/aisle/internal/repo"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/yaml"

	"github.com/aislehq/aisle/internal/tenancy"
)

// The API server's generated ClusterRole must be enough to authenticate keys, and must
// let it get no more of Secrets than the one an embedder names: these specs run the
// registry as a user bound to that role only.
var _ = Describe("The API server's RBAC role", func() {
	var asAPIServer *envtest.AuthenticatedUser

	BeforeEach(func() {
		root, err := repo.Root()
		Expect(err).NotTo(HaveOccurred())
		data, err := os.ReadFile(filepath.Join(root, "config", "rbac", "apiserver", "role.yaml"))
		Expect(err).NotTo(HaveOccurred())
		var role rbacv1.ClusterRole
		Expect(yaml.Unmarshal(data, &role)).To(Succeed())
		Expect(client.IgnoreAlreadyExists(k8sClient.Create(ctx, &role))).To(Succeed())
		binding := &rbacv1.ClusterRoleBinding{
			ObjectMeta: metav1.ObjectMeta{Name: "aisle-apiserver"},
			RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: role.Name},
			Subjects:   []rbacv1.Subject{{APIGroup: "rbac.authorization.k8s.io", Kind: "User", Name: "aisle-apiserver"}},
		}
		Expect(client.IgnoreAlreadyExists(k8sClient.Create(ctx, binding))).To(Succeed())
		asAPIServer, err = testEnv.AddUser(envtest.User{Name: "aisle-apiserver"}, nil)
		Expect(err).NotTo(HaveOccurred())
	})

	It("lets the registry sync and authenticate keys", func() {
		r, err := tenancy.NewRegistry(ctx, asAPIServer.Config(), testEnv.Scheme, clock.RealClock{})
		Expect(err).NotTo(HaveOccurred())
		go func() {
			defer GinkgoRecover()
			Expect(r.Start(ctx)).To(Succeed())
		}()
		Expect(r.WaitForSync(ctx)).To(BeTrue())
		Eventually(func() error {
			_, err := r.Authenticate(ctx, "Bearer "+keys["search"])
			return err
		}).Should(Succeed())
	})

	It("lets it get a Secret by name (an embedder's apiKeySecret), never list or watch them", func() {
		c, err := client.New(asAPIServer.Config(), client.Options{Scheme: testEnv.Scheme})
		Expect(err).NotTo(HaveOccurred())
		err = c.Get(ctx, types.NamespacedName{Namespace: "acme", Name: "anything"}, &corev1.Secret{})
		Expect(apierrors.IsNotFound(err)).To(BeTrue(), "want NotFound, got %v", err)
		err = c.List(ctx, &corev1.SecretList{}, client.InNamespace("acme"))
		Expect(apierrors.IsForbidden(err)).To(BeTrue(), "want Forbidden, got %v", err)
	})
})
