// Package layering checks the import graph: the production path (the API server, the
// operator and the services they use) runs on Elasticsearch and never links the
// embedded engine or Bleve, so a change of the engine cannot change production.
package layering

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/aislehq/aisle/internal/repo"
)

func TestProductionPathLinksNoEngine(t *testing.T) {
	root, err := repo.Root()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-deps", "./apiserver/...", "./controllers/...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 {
		t.Fatalf("go list listed %d packages: not the dependency graph", len(deps))
	}
	for _, dep := range deps {
		if linksEngine(dep) {
			t.Errorf("the API server or the operator depends on %s", dep)
		}
	}
}

// linksEngine reports the engine's packages and Bleve's (its modules included: the
// highlighting that stemmed in Go is Elasticsearch's now).
func linksEngine(dep string) bool {
	return strings.Contains(dep, "/internal/engine") || strings.HasPrefix(dep, "github.com/blevesearch/")
}
