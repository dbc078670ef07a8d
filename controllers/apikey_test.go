package controllers_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/aislehq/aisle/api/securedkey"
	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/apikey"
)

func newKey(ns, name string, spec searchv1alpha1.APIKeySpec) *searchv1alpha1.APIKey {
	key := &searchv1alpha1.APIKey{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: spec}
	Expect(k8sClient.Create(ctx, key)).To(Succeed())
	return key
}

func keyReady(key *searchv1alpha1.APIKey) func(Gomega) *metav1.Condition {
	return readyCondition(key, func() []metav1.Condition { return key.Status.Conditions })
}

// secretKey returns the key value in the APIKey's Secret.
func secretKey(key *searchv1alpha1.APIKey) func(Gomega) string {
	return func(g Gomega) string {
		secret := &corev1.Secret{}
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: key.Namespace, Name: key.Status.SecretName}, secret)).To(Succeed())
		return string(secret.Data[apikey.SecretKey])
	}
}

// currentHash re-reads the key and returns status.current.hash.
func currentHash(key *searchv1alpha1.APIKey) func(Gomega) string {
	return func(g Gomega) string {
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(key), key)).To(Succeed())
		g.Expect(key.Status.Current).NotTo(BeNil())
		return key.Status.Current.Hash
	}
}

// currentPublicKey re-reads the key and returns status.current.securedKeyPublicKey.
func currentPublicKey(key *searchv1alpha1.APIKey) func(Gomega) string {
	return func(g Gomega) string {
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(key), key)).To(Succeed())
		g.Expect(key.Status.Current).NotTo(BeNil())
		return key.Status.Current.SecuredKeyPublicKey
	}
}

// secretMatchesStatus passes once the Secret holds the key whose hash status shows.
func secretMatchesStatus(key *searchv1alpha1.APIKey) func(Gomega) {
	return func(g Gomega) {
		hash := currentHash(key)(g)
		g.Expect(apikey.Hash(secretKey(key)(g))).To(Equal(hash))
	}
}

func updateKey(key *searchv1alpha1.APIKey, change func(*searchv1alpha1.APIKey)) {
	Eventually(func() error {
		if err := k8sClient.Get(ctx, client.ObjectKeyFromObject(key), key); err != nil {
			return err
		}
		change(key)
		return k8sClient.Update(ctx, key)
	}).Should(Succeed())
}

var _ = Describe("APIKey", func() {
	var ns string
	BeforeEach(func() {
		ns = newNamespace("keys")
		createWorkspace(ns, 10)
	})

	It("issues a key into an owned Secret and keeps only its hash, prefix and scopes in status", func() {
		key := newKey(ns, "server", searchv1alpha1.APIKeySpec{Scopes: []searchv1alpha1.Scope{"write"}})
		Eventually(keyReady(key)).Should(haveReady(metav1.ConditionTrue, searchv1alpha1.ReasonReconciled))
		Expect(key.Status.SecretName).To(Equal("server-apikey"))
		Expect(key.Status.Scopes).To(ConsistOf(searchv1alpha1.ScopeWrite, searchv1alpha1.ScopeEvents))
		Expect(key.Status.ObservedGeneration).To(Equal(key.Generation))
		Eventually(secretMatchesStatus(key)).Should(Succeed())

		value := secretKey(key)(Default)
		Expect(apikey.WellFormed(value)).To(BeTrue())
		Expect(key.Status.Current.Prefix).To(Equal(apikey.Prefix(value)))
		secret := &corev1.Secret{}
		Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "server-apikey"}, secret)).To(Succeed())
		Expect(metav1.IsControlledBy(secret, key)).To(BeTrue())

		By("a lost Secret gets a new key and the old hash stops being valid")
		oldHash := key.Status.Current.Hash
		Expect(k8sClient.Delete(ctx, secret)).To(Succeed())
		Eventually(currentHash(key)).ShouldNot(Equal(oldHash))
		Eventually(secretMatchesStatus(key)).Should(Succeed())
		Expect(key.Status.Previous).To(BeEmpty())
	})

	It("uses spec.secretName", func() {
		key := newKey(ns, "named", searchv1alpha1.APIKeySpec{Scopes: []searchv1alpha1.Scope{"search"}, SecretName: "shop-search-key"})
		Eventually(keyReady(key)).Should(haveReady(metav1.ConditionTrue, searchv1alpha1.ReasonReconciled))
		Expect(key.Status.SecretName).To(Equal("shop-search-key"))
		Eventually(secretMatchesStatus(key)).Should(Succeed())
	})

	It("rotates on request, keeps the previous key for the overlap, then revokes it", func() {
		// The spec must see the previous key before the overlap ends: ten seconds leave a
		// loaded machine room between the operator's rotation and the spec's next read.
		key := newKey(ns, "rotating", searchv1alpha1.APIKeySpec{
			Scopes:   []searchv1alpha1.Scope{"search"},
			Rotation: &searchv1alpha1.KeyRotation{Overlap: &metav1.Duration{Duration: 10 * time.Second}},
		})
		Eventually(secretMatchesStatus(key)).Should(Succeed())
		oldHash := key.Status.Current.Hash

		updateKey(key, func(k *searchv1alpha1.APIKey) { k.Spec.Rotation.Request = "2026-01-01T00:00:00Z" })
		Eventually(currentHash(key)).ShouldNot(Equal(oldHash))
		Expect(key.Status.LastRotationRequest).To(Equal("2026-01-01T00:00:00Z"))
		Expect(key.Status.Previous).To(HaveLen(1))
		Expect(key.Status.Previous[0].Hash).To(Equal(oldHash))
		Expect(key.Status.Previous[0].RevokeAt).NotTo(BeNil())
		Expect(key.Status.Previous[0].RevokeAt.Time).To(BeTemporally(">", key.Status.Current.IssuedAt.Time))
		Eventually(secretMatchesStatus(key)).Should(Succeed())

		By("the overlap ends")
		Eventually(func(g Gomega) []searchv1alpha1.IssuedKey {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(key), key)).To(Succeed())
			return key.Status.Previous
		}).Should(BeEmpty())
		Expect(key.Status.Conditions).To(ContainElement(haveReady(metav1.ConditionTrue, searchv1alpha1.ReasonReconciled)))
		Eventually(eventReasons(key)).Should(ContainElements("KeyIssued", "KeyRotated", "KeyRevoked"))
	})

	It("puts the public key of the key's secured keys in status, and a rotation changes it (issue 22)", func() {
		key := newKey(ns, "browser-parent", searchv1alpha1.APIKeySpec{
			Scopes:   []searchv1alpha1.Scope{"search"},
			Rotation: &searchv1alpha1.KeyRotation{Overlap: &metav1.Duration{Duration: time.Hour}},
		})
		Eventually(secretMatchesStatus(key)).Should(Succeed())
		first := securedkey.PublicKey(secretKey(key)(Default))
		Expect(key.Status.Current.SecuredKeyPublicKey).To(Equal(first))
		oldHash := key.Status.Current.Hash

		updateKey(key, func(k *searchv1alpha1.APIKey) { k.Spec.Rotation.Request = "now" })
		Eventually(currentHash(key)).ShouldNot(Equal(oldHash))
		Eventually(secretMatchesStatus(key)).Should(Succeed())
		Expect(key.Status.Current.SecuredKeyPublicKey).To(Equal(securedkey.PublicKey(secretKey(key)(Default))))
		Expect(key.Status.Current.SecuredKeyPublicKey).NotTo(Equal(first))
		Expect(key.Status.Previous).To(ConsistOf(HaveField("SecuredKeyPublicKey", first)),
			"the previous key's secured keys work for the overlap")
	})

	It("gives a key issued before secured keys existed its public key", func() {
		key := newKey(ns, "older", searchv1alpha1.APIKeySpec{Scopes: []searchv1alpha1.Scope{"search"}})
		Eventually(secretMatchesStatus(key)).Should(Succeed())
		hash := key.Status.Current.Hash
		Eventually(func() error {
			if err := k8sClient.Get(ctx, client.ObjectKeyFromObject(key), key); err != nil {
				return err
			}
			key.Status.Current.SecuredKeyPublicKey = ""
			return k8sClient.Status().Update(ctx, key)
		}).Should(Succeed())
		// Any change of the object brings a reconcile; a label changes nothing else.
		updateKey(key, func(k *searchv1alpha1.APIKey) { k.Labels = map[string]string{"touched": "yes"} })
		Eventually(currentPublicKey(key)).Should(Equal(securedkey.PublicKey(secretKey(key)(Default))))
		Expect(key.Status.Current.Hash).To(Equal(hash), "the key itself stays")
	})

	It("expires at spec.expiresAt", func() {
		// The expiry is set once the key is valid, so that the spec sees it valid first
		// however long the operator takes to issue it.
		key := newKey(ns, "shortlived", searchv1alpha1.APIKeySpec{Scopes: []searchv1alpha1.Scope{"search"}})
		Eventually(keyReady(key)).Should(haveReady(metav1.ConditionTrue, searchv1alpha1.ReasonReconciled))
		updateKey(key, func(k *searchv1alpha1.APIKey) { k.Spec.ExpiresAt = &metav1.Time{Time: time.Now().Add(time.Second)} })
		Eventually(keyReady(key)).Should(haveReady(metav1.ConditionFalse, searchv1alpha1.ReasonExpired))
	})

	It("waits for its Workspace", func() {
		orphanNS := newNamespace("keys-nows")
		key := newKey(orphanNS, "early", searchv1alpha1.APIKeySpec{Scopes: []searchv1alpha1.Scope{"search"}})
		Eventually(keyReady(key)).Should(haveReady(metav1.ConditionFalse, searchv1alpha1.ReasonWorkspaceNotFound))
		Expect(key.Status.Current).To(BeNil())
		createWorkspace(orphanNS, 10)
		Eventually(keyReady(key)).Should(haveReady(metav1.ConditionTrue, searchv1alpha1.ReasonReconciled))
		Eventually(secretMatchesStatus(key)).Should(Succeed())
	})
})
