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
	DescribeTable("passes helm lint --strict and the kube-apiserver's validation of every object",
		func(values map[string]string) {
			run("", tools.helm, append([]string{"lint", "--strict", tools.chart}, helmArgs(values)...)...)
			manifest := template(namespace, values)
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

	It("grants the ServiceAccounts exactly the rules make manifests generates from the code", func() {
		objs := objects(template(namespace, nil))
		for _, component := range []string{"operator", "apiserver"} {
			generated, err := os.ReadFile(filepath.Join(tools.root, "config", "rbac", component, "role.yaml"))
			Expect(err).NotTo(HaveOccurred())
			var want map[string]any
			Expect(yaml.Unmarshal(generated, &want)).To(Succeed())
			Expect(find(objs, "ClusterRole", "aisle-"+component).Object["rules"]).To(Equal(want["rules"]))
		}
	})

	It("runs every container non-root with a read-only root filesystem and probes", func() {
		for _, o := range objects(template(namespace, nil)) {
			if o.GetKind() != "Deployment" && o.GetKind() != "StatefulSet" {
				continue
			}
			Expect(podSpec(o)["securityContext"]).To(HaveKeyWithValue("runAsNonRoot", true))
			c := container(o)
			Expect(c["securityContext"]).To(And(HaveKeyWithValue("readOnlyRootFilesystem", true),
				HaveKeyWithValue("allowPrivilegeEscalation", false)))
			Expect(c).To(HaveKey("readinessProbe"))
			Expect(c).To(HaveKey("livenessProbe"))
		}
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
	)

	It("refuses to install without a search backend", func() {
		out, err := tryRun("", tools.helm, "template", "aisle", tools.chart, "--set", "engine.enabled=false")
		Expect(err).To(HaveOccurred())
		Expect(out).To(ContainSubstring("set elasticsearch.url, or leave engine.enabled on"))
	})
})

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
