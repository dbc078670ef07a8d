package esbackend

import (
	"context"
	"fmt"

	"github.com/aislehq/aisle/internal/engine"
)

func startEngine(ctx context.Context, dataDir string) (string, func() error, error) {
	srv, err := engine.Start(ctx, engine.Config{DataDir: dataDir})
	if err != nil {
		return "", nil, fmt.Errorf("starting the embedded engine: %w", err)
	}
	return srv.URL(), srv.Close, nil
}
