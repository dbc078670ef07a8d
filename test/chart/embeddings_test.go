package chart

import (
	"maps"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

var _ = Describe("The chart's embedding server", func() {
	const namespace = "aisle-embeddings"
	tei := valueSets["the text-embeddings-inference server with NetworkPolicies"]
	ollama := valueSets["the Ollama server with a model cache volume"]

	// embedderURL is the API server's AISLE_EMBEDDER_URL, "" when it has none.
	embedderURL := func(objs []*unstructured.Unstructured) string {
		for _, e := range container(find(objs, "Deployment", "aisle-apiserver"))["env"].([]any) {
			if env := e.(map[string]any); env["name"] == "AISLE_EMBEDDER_URL" {
				return env["value"].(string)
			}
		}
		return ""
	}

	It("is not installed by default, and the API server then has no embedder URL", func() {
		objs := objects(template(namespace, nil))
		for _, o := range objs {
			Expect(o.GetName()).NotTo(ContainSubstring("embeddings"), o.GetKind())
		}
		Expect(embedderURL(objs)).To(BeEmpty())
	})

	DescribeTable("gives the API server the address of its Service as the embedders' default URL",
		func(values map[string]string, port int64) {
			objs := objects(template(namespace, values))
			svc := find(objs, "Service", "aisle-embeddings")
			Expect(svc.Object["spec"]).To(HaveKeyWithValue("ports",
				ConsistOf(And(HaveKeyWithValue("port", BeEquivalentTo(port)), HaveKeyWithValue("targetPort", "http")))))
			Expect(svc.Object["spec"]).To(HaveKeyWithValue("selector",
				HaveKeyWithValue("app.kubernetes.io/component", "embeddings")))
			Expect(podLabels(find(objs, "Deployment", "aisle-embeddings"))).To(
				HaveKeyWithValue("app.kubernetes.io/component", "embeddings"))
			Expect(container(find(objs, "Deployment", "aisle-embeddings"))["ports"]).To(ConsistOf(
				And(HaveKeyWithValue("name", "http"), HaveKeyWithValue("containerPort", BeEquivalentTo(port)))))
			Expect(embedderURL(objs)).To(Equal("http://aisle-embeddings." + namespace + ".svc:" + strconv.FormatInt(port, 10)))
		},
		Entry("text-embeddings-inference on the default port", tei, int64(8080)),
		Entry("Ollama on another port", merge(ollama, map[string]string{"embeddings.port": "11434"}), int64(11434)),
	)

	It("runs text-embeddings-inference on the model of the values, probed on /health, with its cache on the volume", func() {
		objs := objects(template(namespace, merge(tei, map[string]string{"embeddings.tei.model": "intfloat/e5-small-v2",
			"embeddings.resources.limits.memory": "3Gi", "embeddings.resources.requests.cpu": "1500m"})))
		d := find(objs, "Deployment", "aisle-embeddings")
		c := container(d)
		Expect(c["image"]).To(Equal("ghcr.io/huggingface/text-embeddings-inference:cpu-1.9.4"))
		Expect(c["args"]).To(ContainElements("--model-id=intfloat/e5-small-v2", "--port=8080", "--hostname=0.0.0.0",
			"--huggingface-hub-cache=/data"))
		for _, probe := range []string{"startupProbe", "livenessProbe", "readinessProbe"} {
			Expect(c[probe]).To(HaveKeyWithValue("httpGet", And(HaveKeyWithValue("path", "/health"),
				HaveKeyWithValue("port", "http"))), probe)
		}
		Expect(c["resources"]).To(Equal(map[string]any{"limits": map[string]any{"memory": "3Gi"},
			"requests": map[string]any{"cpu": "1500m", "memory": "1Gi"}}))
		Expect(c["volumeMounts"]).To(ContainElement(And(HaveKeyWithValue("name", "models"), HaveKeyWithValue("mountPath", "/data"))))
		Expect(podSpec(d)["volumes"]).To(ContainElement(And(HaveKeyWithValue("name", "models"), HaveKey("emptyDir"))))
		Expect(podSpec(d)).NotTo(HaveKey("initContainers"))
	})

	It("runs Ollama after an init container pulled the model, its models on the PersistentVolumeClaim", func() {
		objs := objects(template(namespace, ollama))
		d := find(objs, "Deployment", "aisle-embeddings")
		c := container(d)
		Expect(c["image"]).To(Equal("ollama/ollama:0.6.8"))
		Expect(c["args"]).To(Equal([]any{"serve"}))
		Expect(yamlOf(c["env"])).To(And(ContainSubstring("value: 0.0.0.0:8080"), ContainSubstring("value: /data/models")))
		Expect(c["readinessProbe"]).To(HaveKeyWithValue("httpGet", HaveKeyWithValue("path", "/")))
		inits := podSpec(d)["initContainers"].([]any)
		Expect(inits).To(HaveLen(1))
		pull := inits[0].(map[string]any)
		Expect(pull["image"]).To(Equal(c["image"]))
		Expect(pull["args"]).To(ConsistOf(ContainSubstring(`ollama pull "$MODEL"`)))
		Expect(yamlOf(pull["env"])).To(ContainSubstring("value: nomic-embed-text"))
		Expect(podSpec(d)["volumes"]).To(ContainElement(HaveKeyWithValue("persistentVolumeClaim",
			HaveKeyWithValue("claimName", "aisle-embeddings"))))
		// Two pods cannot share a ReadWriteOnce volume during a rolling update.
		Expect(d.Object["spec"]).To(HaveKeyWithValue("strategy", HaveKeyWithValue("type", "Recreate")))
		pvc := find(objs, "PersistentVolumeClaim", "aisle-embeddings")
		Expect(pvc.Object["spec"]).To(And(HaveKeyWithValue("storageClassName", "fast"),
			HaveKeyWithValue("resources", HaveKeyWithValue("requests", HaveKeyWithValue("storage", "5Gi")))))
	})

	DescribeTable("runs non-root with a read-only root filesystem and no Kubernetes token",
		func(values map[string]string) {
			d := find(objects(template(namespace, values)), "Deployment", "aisle-embeddings")
			pod := podSpec(d)
			Expect(pod).To(HaveKeyWithValue("automountServiceAccountToken", false))
			Expect(pod["securityContext"]).To(And(HaveKeyWithValue("runAsNonRoot", true),
				HaveKeyWithValue("seccompProfile", HaveKeyWithValue("type", "RuntimeDefault"))))
			containers := pod["containers"].([]any)
			if inits, ok := pod["initContainers"].([]any); ok {
				containers = append(containers, inits...)
			}
			for _, c := range containers {
				Expect(c).To(HaveKeyWithValue("securityContext", And(HaveKeyWithValue("readOnlyRootFilesystem", true),
					HaveKeyWithValue("allowPrivilegeEscalation", false))))
			}
		},
		Entry("text-embeddings-inference", tei),
		Entry("Ollama and its init container", ollama),
	)

	It("lets only the API server reach it when NetworkPolicies are on", func() {
		np := find(objects(template(namespace, tei)), "NetworkPolicy", "aisle-embeddings")
		Expect(np.Object["spec"]).To(HaveKeyWithValue("podSelector", HaveKeyWithValue("matchLabels",
			HaveKeyWithValue("app.kubernetes.io/component", "embeddings"))))
		Expect(np.Object["spec"]).To(HaveKeyWithValue("ingress", ConsistOf(And(
			HaveKeyWithValue("from", ConsistOf(HaveKeyWithValue("podSelector", HaveKeyWithValue("matchLabels",
				HaveKeyWithValue("app.kubernetes.io/component", "apiserver"))))),
			HaveKeyWithValue("ports", ConsistOf(HaveKeyWithValue("port", "http")))))))
	})
})

func podLabels(o *unstructured.Unstructured) map[string]string {
	labels, _, err := unstructured.NestedStringMap(o.Object, "spec", "template", "metadata", "labels")
	Expect(err).NotTo(HaveOccurred())
	return labels
}

// merge returns a copy of base with more's values over it.
func merge(base, more map[string]string) map[string]string {
	out := maps.Clone(base)
	maps.Copy(out, more)
	return out
}
