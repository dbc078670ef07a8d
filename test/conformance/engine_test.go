package conformance_test

import (
	"context"
	"os"

	"github.com/aislehq/aisle/internal/engine"
)

func init() {
	startEngine = func() (string, func() error, error) {
		dir, err := os.MkdirTemp("", "aisle-conformance-")
		if err != nil {
			return "", nil, err
		}
		// Not the BeforeSuite context: it ends before the specs run.
		s, err := engine.Start(context.Background(), engine.Config{DataDir: dir})
		if err != nil {
			return "", nil, err
		}
		stop := func() error {
			err := s.Close()
			if rerr := os.RemoveAll(dir); err == nil {
				err = rerr
			}
			return err
		}
		return s.URL(), stop, nil
	}
}
