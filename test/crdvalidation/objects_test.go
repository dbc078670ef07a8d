package crdvalidation

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/aislehq/aisle/internal/devenv"
	"github.com/aislehq/aisle/internal/repo"
)

var serial atomic.Int32

// uniqueName keeps table entries independent: a rule that wrongly accepts one object
// must not make a later entry fail for a name clash instead of its own reason.
func uniqueName(prefix string) string {
	return fmt.Sprintf("%s-%d", prefix, serial.Add(1))
}

// object parses a YAML manifest into an unstructured object.
func object(manifest string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	if err := yaml.Unmarshal([]byte(manifest), &u.Object); err != nil {
		panic(fmt.Sprintf("bad test manifest: %v\n%s", err, manifest))
	}
	return u
}

// indent nests a YAML snippet under a parent key.
func indent(snippet string, spaces int) string {
	pad := strings.Repeat(" ", spaces)
	lines := strings.Split(strings.TrimSpace(snippet), "\n")
	for i, line := range lines {
		lines[i] = pad + line
	}
	return strings.Join(lines, "\n")
}

func searchIndex(name, spec string) string {
	if name == "" {
		name = uniqueName("idx")
	}
	return fmt.Sprintf("apiVersion: search.aisle.dev/v1alpha1\nkind: SearchIndex\nmetadata:\n  name: %s\n  namespace: shop\nspec:\n%s\n", name, indent(spec, 2))
}

func apiKey(name, spec string) string {
	if name == "" {
		name = uniqueName("key")
	}
	return fmt.Sprintf("apiVersion: search.aisle.dev/v1alpha1\nkind: APIKey\nmetadata:\n  name: %s\n  namespace: shop\nspec:\n%s\n", name, indent(spec, 2))
}

func workspace(name, spec string) string {
	if name == "" {
		name = uniqueName("ws")
	}
	return fmt.Sprintf("apiVersion: search.aisle.dev/v1alpha1\nkind: Workspace\nmetadata:\n  name: %s\nspec:\n%s\n", name, indent(spec, 2))
}

// sampleObjects reads every object of config/samples, keyed by file, kind and name.
func sampleObjects() (map[string]*unstructured.Unstructured, error) {
	root, err := repo.Root()
	if err != nil {
		return nil, err
	}
	objs, err := devenv.ReadManifests(filepath.Join(root, "config", "samples", "search_*.yaml"))
	if err != nil {
		return nil, err
	}
	byName := map[string]*unstructured.Unstructured{}
	for _, u := range objs {
		byName[fmt.Sprintf("%s/%s", u.GetKind(), u.GetName())] = u
	}
	return byName, nil
}
