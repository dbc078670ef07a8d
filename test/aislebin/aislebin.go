// Package aislebin builds the aisle binary for suites that run its components as
// processes, to kill them as a crash would.
package aislebin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/aislehq/aisle/internal/repo"
)

// Build builds ./cmd/aisle into a new temporary folder and returns the binary's path;
// the caller removes filepath.Dir of it when done.
func Build() (string, error) {
	root, err := repo.Root()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "aisle-bin")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "aisle")
	build := exec.Command("go", "build", "-o", bin, "./cmd/aisle")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building aisle: %w\n%s", err, out)
	}
	return bin, nil
}
