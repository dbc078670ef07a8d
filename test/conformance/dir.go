// Package conformance runs Elasticsearch's own YAML REST tests (kept
// outside the project, in ../shared/es-conformance) against the engine; the
// specs live in conformance_suite_test.go, the skip list in skiplist.go.
package conformance

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/aislehq/aisle/internal/repo"
)

// DirEnv overrides where the YAML tests and API specs are read from.
const DirEnv = "ES_CONFORMANCE_DIR"

// Dir returns the folder holding api/ and test/: $ES_CONFORMANCE_DIR, or
// shared/es-conformance beside the repository (worktrees and CI clones
// both have shared/ next to the checkout). A missing folder is an error,
// never a reason to skip.
func Dir() (string, error) {
	dir := os.Getenv(DirEnv)
	if dir == "" {
		root, err := repo.Root()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(root, "..", "shared", "es-conformance")
	}
	for _, sub := range []string{"api", "test"} {
		if fi, err := os.Stat(filepath.Join(dir, sub)); err != nil || !fi.IsDir() {
			return "", fmt.Errorf("the Elasticsearch conformance files are not found: %s/%s is missing (set %s)", dir, sub, DirEnv)
		}
	}
	return filepath.Abs(dir)
}
