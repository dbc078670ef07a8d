// Package esbackend gives tests a search backend: the cluster at $AISLE_ES_URL when it is
// set, else the embedded engine started in-process; a TCP proxy in front of it that a
// test can stop and start to simulate an outage; and a Gate, an HTTP proxy that holds
// chosen requests so that a test can stop a process at a known point of its work.
package esbackend

import (
	"context"
	"os"
)

// URLEnv names the variable that points tests at a running backend.
const URLEnv = "AISLE_ES_URL"

// Start returns the URL of a backend and a function that stops it (a no-op for an
// external one). dataDir holds the in-process engine's data.
func Start(ctx context.Context, dataDir string) (string, func() error, error) {
	if url := os.Getenv(URLEnv); url != "" {
		return url, func() error { return nil }, nil
	}
	return startEngine(ctx, dataDir)
}
