//go:build !engine

package esbackend

import (
	"context"
	"fmt"
)

func startEngine(context.Context, string) (string, func() error, error) {
	return "", nil, fmt.Errorf("no search backend: set %s, or build the tests with -tags engine", URLEnv)
}
