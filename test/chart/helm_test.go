package chart

import (
	"bytes"
	"os"
	"os/exec"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// run runs a tool with the admin kubeconfig and returns its standard output; a failure
// fails the spec with the tool's standard error.
func run(stdin string, name string, args ...string) string {
	out, err := tryRun(stdin, name, args...)
	Expect(err).NotTo(HaveOccurred(), "%s %s: %s", name, strings.Join(args, " "), out)
	return out
}

func tryRun(stdin string, name string, args ...string) (string, error) {
	GinkgoHelper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+tools.kubeconfig, "HELM_CACHE_HOME="+helmHome(), "HELM_CONFIG_HOME="+helmHome(), "HELM_DATA_HOME="+helmHome())
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String() + stderr.String(), err
	}
	return stdout.String(), nil
}

var helmDir string

// helmHome keeps helm's caches out of the user's home.
func helmHome() string {
	if helmDir == "" {
		helmDir = GinkgoT().TempDir()
	}
	return helmDir
}

// helmArgs turns a values set into --set arguments.
func helmArgs(values map[string]string) []string {
	var args []string
	for k, v := range values {
		args = append(args, "--set", k+"="+v)
	}
	return args
}

// template renders the chart as release aisle; flags go to helm template.
func template(namespace string, values map[string]string, flags ...string) string {
	args := append([]string{"template", "aisle", tools.chart, "--namespace", namespace}, flags...)
	return run("", tools.helm, append(args, helmArgs(values)...)...)
}

// objects splits a rendered manifest into its objects.
func objects(manifest string) []*unstructured.Unstructured {
	dec := utilyaml.NewYAMLOrJSONDecoder(strings.NewReader(manifest), 4096)
	var objs []*unstructured.Unstructured
	for {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			Expect(err.Error()).To(Equal("EOF"))
			return objs
		}
		if len(m) > 0 {
			objs = append(objs, &unstructured.Unstructured{Object: m})
		}
	}
}

// kinds counts the rendered objects by kind.
func kinds(objs []*unstructured.Unstructured) map[string]int {
	n := map[string]int{}
	for _, o := range objs {
		n[o.GetKind()]++
	}
	return n
}

func find(objs []*unstructured.Unstructured, kind, name string) *unstructured.Unstructured {
	for _, o := range objs {
		if o.GetKind() == kind && o.GetName() == name {
			return o
		}
	}
	Fail("no " + kind + " " + name + " was rendered")
	return nil
}
