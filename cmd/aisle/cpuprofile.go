package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
)

// profileOnSignal lets a benchmark profile one phase of a running engine: with
// AISLE_CPUPROFILE=prefix set, each SIGUSR1 starts a CPU profile written to prefix-N.pprof
// and the next one ends it. Without the variable no handler is installed.
func profileOnSignal(ctx context.Context) {
	prefix := os.Getenv("AISLE_CPUPROFILE")
	if prefix == "" {
		return
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGUSR1)
	go func() {
		defer signal.Stop(sig)
		var f *os.File
		for n := 0; ; {
			select {
			case <-ctx.Done():
				stopProfile(f)
				return
			case <-sig:
			}
			if f != nil {
				stopProfile(f)
				f = nil
				continue
			}
			n++
			f = startProfile(fmt.Sprintf("%s-%d.pprof", prefix, n))
		}
	}()
}

func startProfile(path string) *os.File {
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "aisle: cpu profile:", err)
		return nil
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, "aisle: cpu profile:", err)
		_ = f.Close()
		return nil
	}
	return f
}

func stopProfile(f *os.File) {
	if f == nil {
		return
	}
	pprof.StopCPUProfile()
	_ = f.Close()
}
