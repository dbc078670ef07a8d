package chart

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// valueSets are the installations the chart is checked with.
var valueSets = map[string]map[string]string{
	"defaults": {},
	"an existing Elasticsearch with credentials and a CA": {
		"elasticsearch.url": "https://es-http.elastic.svc:9200", "elasticsearch.existingSecret": "es-credentials",
		"elasticsearch.caSecret": "es-ca",
	},
	"HA with an Ingress and an autoscaler": {
		"operator.replicas": "2", "apiserver.autoscaling.enabled": "true", "apiserver.autoscaling.maxReplicas": "4",
		"apiserver.ingress.enabled": "true", "apiserver.ingress.className": "nginx",
	},
	"the engine off": {"engine.enabled": "false", "elasticsearch.url": "http://elasticsearch:9200"},
	"NetworkPolicy and ServiceMonitor on": {"networkPolicy.enabled": "true", "serviceMonitor.enabled": "true",
		"engine.persistence.enabled": "false"},
	"the text-embeddings-inference server with NetworkPolicies": {"embeddings.enabled": "true", "networkPolicy.enabled": "true"},
	"the Ollama server with a model cache volume": {"embeddings.enabled": "true", "embeddings.server": "ollama",
		"embeddings.persistence.enabled": "true", "embeddings.persistence.storageClass": "fast"},
}

var _ = Describe("What the chart renders", func() {
	const namespace = "aisle-render"

	BeforeEach(func() {
		// Server-side dry runs of namespaced objects need their namespace.
		_, _ = tryRun("", tools.kubectl, "create", "namespace", namespace)
	})

	entries := []TableEntry{}
	for name, values := range valueSets {
		entries = append(entries, Entry(name, values))
	}
	DescribeTable("passes helm lint --strict and the kube-apiserver's validation of every object, the CRDs included",
		func(values map[string]string) {
			run("", tools.helm, append([]string{"lint", "--strict", tools.chart}, helmArgs(values)...)...)
			manifest := template(namespace, values, "--include-crds")
			Expect(objects(manifest)).NotTo(BeEmpty())
			out := run(manifest, tools.kubectl, "apply", "--dry-run=server", "--namespace", namespace, "-f", "-")
			Expect(out).To(ContainSubstring("(server dry run)"))
		},
		entries,
	)

	DescribeTable("installs the embedded engine only without an Elasticsearch URL",
		func(values map[string]string, statefulSets int) {
			Expect(kinds(objects(template(namespace, values)))["StatefulSet"]).To(Equal(statefulSets))
		},
		Entry("by default", map[string]string{}, 1),
		Entry("with an Elasticsearch URL", valueSets["an existing Elasticsearch with credentials and a CA"], 0),
		Entry("with the engine off", valueSets["the engine off"], 0),
	)

	It("takes the Elasticsearch credentials and CA from the Secrets the user names", func() {
		objs := objects(template(namespace, valueSets["an existing Elasticsearch with credentials and a CA"]))
		for _, name := range []string{"aisle-operator", "aisle-apiserver"} {
			pod := podSpec(find(objs, "Deployment", name))
			Expect(pod).To(HaveKey("volumes"))
			Expect(yamlOf(pod)).To(And(
				ContainSubstring("secretName: es-ca"),
				ContainSubstring("value: https://es-http.elastic.svc:9200"),
				ContainSubstring("name: es-credentials"),
				ContainSubstring("value: /etc/ssl/certs:/etc/aisle/elasticsearch-ca"),
			))
		}
	})

	DescribeTable("divides the public search limits among the API server replicas",
		func(values map[string]string, perVisitor, perIndex string) {
			args := container(find(objects(template(namespace, values)), "Deployment", "aisle-apiserver"))["args"]
			Expect(args).To(ContainElements("--public-search-per-visitor="+perVisitor, "--public-search-per-index="+perIndex))
		},
		Entry("2 replicas by default", map[string]string{}, "120", "3000"),
		Entry("3 replicas", map[string]string{"apiserver.replicas": "3"}, "80", "2000"),
		Entry("an autoscaler that may run 6", map[string]string{"apiserver.autoscaling.enabled": "true"}, "40", "1000"),
		Entry("more replicas than the limit, at least 1 each", map[string]string{
			"apiserver.replicas": "7", "apiserver.publicSearch.perVisitorPerMinute": "5"}, "1", "857"),
	)

	DescribeTable("grants the ServiceAccounts exactly the rules make manifests generates from the code",
		func(kind, name, role string) {
			generated, err := os.ReadFile(filepath.Join(tools.root, "config", "rbac", role, "role.yaml"))
			Expect(err).NotTo(HaveOccurred())
			var want map[string]any
			Expect(yaml.Unmarshal(generated, &want)).To(Succeed())
			Expect(find(objects(template(namespace, nil)), kind, name).Object["rules"]).To(Equal(want["rules"]))
		},
		Entry("the operator, over the cluster", "ClusterRole", "aisle-operator", "operator"),
		Entry("the API server, over the cluster", "ClusterRole", "aisle-apiserver", "apiserver"),
		Entry("the operator's leader election, in the release's namespace", "Role", "aisle-leader-election", "leader-election"),
	)

	It("grants leases only in the release's namespace, not other controllers' leases across the cluster", func() {
		for _, o := range objects(template(namespace, nil)) {
			if o.GetKind() == "ClusterRole" {
				Expect(yamlOf(o.Object["rules"])).NotTo(ContainSubstring("leases"), o.GetName())
			}
		}
	})

	It("runs every container non-root, with a read-only root filesystem, no privilege escalation and seccomp RuntimeDefault", func() {
		for _, o := range workloads(objects(template(namespace, nil))) {
			Expect(podSpec(o)["securityContext"]).To(And(HaveKeyWithValue("runAsNonRoot", true),
				HaveKeyWithValue("runAsUser", BeEquivalentTo(65532)),
				HaveKeyWithValue("seccompProfile", HaveKeyWithValue("type", "RuntimeDefault"))), o.GetName())
			Expect(container(o)["securityContext"]).To(And(HaveKeyWithValue("readOnlyRootFilesystem", true),
				HaveKeyWithValue("allowPrivilegeEscalation", false),
				HaveKeyWithValue("capabilities", HaveKeyWithValue("drop", ConsistOf("ALL")))), o.GetName())
		}
	})

	DescribeTable("probes the operator and the API server on /healthz and /readyz",
		func(name string) {
			c := container(find(objects(template(namespace, nil)), "Deployment", name))
			Expect(c["livenessProbe"]).To(HaveKeyWithValue("httpGet", HaveKeyWithValue("path", "/healthz")))
			Expect(c["readinessProbe"]).To(HaveKeyWithValue("httpGet", HaveKeyWithValue("path", "/readyz")))
		},
		Entry("the operator", "aisle-operator"),
		Entry("the API server", "aisle-apiserver"),
	)

	DescribeTable("places each component's pods by its own nodeSelector, tolerations and affinity",
		func(component, kind string) {
			affinity := `{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":` +
				`[{"matchExpressions":[{"key":"pool","operator":"In","values":["` + component + `"]}]}]}}}`
			manifest := template(namespace, map[string]string{component + ".nodeSelector.pool": component},
				"--set-json", component+`.tolerations=[{"key":"dedicated","operator":"Equal","value":"`+component+`","effect":"NoSchedule"}]`,
				"--set-json", component+".affinity="+affinity)
			for _, o := range workloads(objects(manifest)) {
				pod := podSpec(o)
				if o.GetName() != "aisle-"+component {
					Expect(pod).NotTo(HaveKey("nodeSelector"), o.GetName())
					continue
				}
				Expect(o.GetKind()).To(Equal(kind))
				Expect(pod).To(HaveKeyWithValue("nodeSelector", HaveKeyWithValue("pool", component)))
				Expect(pod).To(HaveKeyWithValue("tolerations", ConsistOf(HaveKeyWithValue("value", component))))
				Expect(yamlOf(pod["affinity"])).To(ContainSubstring("- " + component))
			}
		},
		Entry("the operator", "operator", "Deployment"),
		Entry("the API server", "apiserver", "Deployment"),
		Entry("the engine", "engine", "StatefulSet"),
	)

	DescribeTable("renders the optional objects only when asked",
		func(values map[string]string, want map[string]int) {
			got := kinds(objects(template(namespace, values)))
			for kind, n := range want {
				Expect(got[kind]).To(Equal(n), kind)
			}
		},
		Entry("by default: a PodDisruptionBudget and no Ingress, autoscaler, NetworkPolicy or ServiceMonitor", map[string]string{},
			map[string]int{"PodDisruptionBudget": 1, "Ingress": 0, "HorizontalPodAutoscaler": 0, "NetworkPolicy": 0, "ServiceMonitor": 0}),
		Entry("HA: an Ingress and an autoscaler", valueSets["HA with an Ingress and an autoscaler"],
			map[string]int{"PodDisruptionBudget": 1, "Ingress": 1, "HorizontalPodAutoscaler": 1}),
		Entry("NetworkPolicies for the three components and ServiceMonitors for the two with metrics",
			valueSets["NetworkPolicy and ServiceMonitor on"], map[string]int{"NetworkPolicy": 3, "ServiceMonitor": 2}),
		Entry("no engine NetworkPolicy without the engine", map[string]string{"networkPolicy.enabled": "true",
			"elasticsearch.url": "http://elasticsearch:9200"}, map[string]int{"NetworkPolicy": 2, "StatefulSet": 0}),
		Entry("an embedding server: its Deployment and Service, and a NetworkPolicy for it too",
			valueSets["the text-embeddings-inference server with NetworkPolicies"],
			map[string]int{"Deployment": 3, "Service": 4, "NetworkPolicy": 4, "PersistentVolumeClaim": 0}),
		Entry("an embedding server with a model cache: its PersistentVolumeClaim", valueSets["the Ollama server with a model cache volume"],
			map[string]int{"Deployment": 3, "PersistentVolumeClaim": 1, "NetworkPolicy": 0}),
		Entry("no PodDisruptionBudget when turned off", map[string]string{"apiserver.podDisruptionBudget.enabled": "false"},
			map[string]int{"PodDisruptionBudget": 0}),
	)

	It("leaves the API server's replicas to the autoscaler, and runs two operators for HA", func() {
		objs := objects(template(namespace, valueSets["HA with an Ingress and an autoscaler"]))
		Expect(find(objs, "Deployment", "aisle-apiserver").Object["spec"]).NotTo(HaveKey("replicas"))
		Expect(find(objs, "Deployment", "aisle-operator").Object["spec"]).To(HaveKeyWithValue("replicas", BeEquivalentTo(2)))
	})

	DescribeTable("refuses values the schema does not know, naming them",
		func(key, value, message string) {
			out, err := tryRun("", tools.helm, "template", "aisle", tools.chart, "--set", key+"="+value)
			Expect(err).To(HaveOccurred())
			Expect(out).To(ContainSubstring(message))
		},
		Entry("a misspelt key", "apiserver.replica", "3", "replica"),
		Entry("a port out of range", "apiserver.port", "70000", "apiserver"),
		Entry("an unknown log level", "operator.logLevel", "verbose", "logLevel"),
		Entry("an unknown embedding server", "embeddings.server", "vllm", "server"),
	)

	DescribeTable("refuses installations that cannot work, saying why",
		func(values map[string]string, message string) {
			out, err := tryRun("", tools.helm, append([]string{"template", "aisle", tools.chart}, helmArgs(values)...)...)
			Expect(err).To(HaveOccurred())
			Expect(out).To(ContainSubstring(message))
		},
		Entry("no search backend", map[string]string{"engine.enabled": "false"},
			"set elasticsearch.url, or leave engine.enabled on"),
		Entry("operator replicas without leader election", map[string]string{"operator.replicas": "2", "operator.leaderElection": "false"},
			"operator.replicas above 1 needs operator.leaderElection"),
	)
})

// workloads are the rendered Deployments and StatefulSets.
func workloads(objs []*unstructured.Unstructured) []*unstructured.Unstructured {
	var found []*unstructured.Unstructured
	for _, o := range objs {
		if o.GetKind() == "Deployment" || o.GetKind() == "StatefulSet" {
			found = append(found, o)
		}
	}
	return found
}

func podSpec(o *unstructured.Unstructured) map[string]any {
	spec, found, err := unstructured.NestedMap(o.Object, "spec", "template", "spec")
	Expect(err).NotTo(HaveOccurred())
	Expect(found).To(BeTrue(), "%s %s has no pod template", o.GetKind(), o.GetName())
	return spec
}

// container returns the pod's only container.
func container(o *unstructured.Unstructured) map[string]any {
	containers := podSpec(o)["containers"].([]any)
	Expect(containers).To(HaveLen(1))
	return containers[0].(map[string]any)
}

func yamlOf(v any) string {
	out, err := yaml.Marshal(v)
	Expect(err).NotTo(HaveOccurred())
	return string(out)
}
