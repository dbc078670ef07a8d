package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/apikey"
)

func kubeClient() client.Client {
	c, err := running.Client()
	Expect(err).NotTo(HaveOccurred())
	return c
}

func call(path, key string) (int, map[string]any) {
	req, err := http.NewRequest(http.MethodGet, env.BaseURL+"/api/teams/demo/indexes/products"+path, nil)
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	Expect(err).NotTo(HaveOccurred())
	var v map[string]any
	Expect(json.Unmarshal(body, &v)).To(Succeed(), "body: %s", body)
	return resp.StatusCode, v
}

var _ = Describe("A tenant applied as YAML", func() {
	It("gets keys in Secrets that the API accepts, and only for their scopes", func(ctx SpecContext) {
		c := kubeClient()
		var key searchv1alpha1.APIKey
		Expect(c.Get(ctx, types.NamespacedName{Namespace: "demo", Name: "write"}, &key)).To(Succeed())
		var secret corev1.Secret
		Expect(c.Get(ctx, types.NamespacedName{Namespace: "demo", Name: key.Status.SecretName}, &secret)).To(Succeed())
		writeKey := string(secret.Data[apikey.SecretKey])
		Expect(apikey.Hash(writeKey)).To(Equal(key.Status.Current.Hash))
		Expect(writeKey).To(Equal(env.Keys["write"]))

		var index searchv1alpha1.SearchIndex
		Expect(c.Get(ctx, types.NamespacedName{Namespace: "demo", Name: "products"}, &index)).To(Succeed())
		status, body := call("/public-access", writeKey)
		Expect(status).To(Equal(http.StatusOK))
		Expect(body["publicId"]).To(Equal(index.Status.PublicID))
		Expect(body["allowedOrigins"]).To(ConsistOf("http://localhost:8080"))

		status, body = call("/config", env.Keys["search"])
		Expect(status).To(Equal(http.StatusOK))
		Expect(body["language"]).To(Equal("en"))

		status, body = call("/public-access", env.Keys["search"])
		Expect(status).To(Equal(http.StatusForbidden))
		Expect(body).To(Equal(map[string]any{"error": "API key lacks the scope this endpoint needs"}))
	})

	It("describes itself in dev-env.json", func() {
		Expect(env.Workspace).To(Equal("demo"))
		Expect(env.Indexes).To(HaveLen(1))
		Expect(env.Indexes[0].PublicID).To(HaveLen(32))
		Expect(env.Keys).To(HaveKey("search"))
		Expect(env.Keys).To(HaveKey("events"))
	})
})

var _ = Describe("The lines aisle dev prints", Ordered, func() {
	It("work as printed, in order", func() {
		for _, line := range strings.Split(strings.TrimSpace(env.CurlLines()), "\n") {
			out, err := exec.Command("bash", "-c", line).CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), "%s\n%s", line, out)
			if strings.HasPrefix(line, "curl") {
				var v map[string]any
				Expect(json.Unmarshal(out, &v)).To(Succeed(), "%s\n%s", line, out)
				Expect(v).NotTo(HaveKey("error"), "%s\n%s", line, out)
			}
		}
	})

	It("write a record that reads back with its version", func() {
		status, body := call("/records/sku-1", env.Keys["search"])
		Expect(status).To(Equal(http.StatusOK))
		Expect(body["version"]).To(BeNumerically(">", 0))
		Expect(body["record"]).To(HaveKeyWithValue("name", "Trail shoe"))
	})
})
