package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"os/signal"
	"syscall"

	"github.com/aislehq/aisle/internal/engine"
)

func init() {
	commands["engine"] = command{summary: "run the embedded Elasticsearch-compatible search engine", run: runEngine}
}

func runEngine(args []string) error {
	fs := flag.NewFlagSet("engine", flag.ContinueOnError)
	data := fs.String("data", "./data/engine", "data directory")
	listen := fs.String("listen", "127.0.0.1:9200", "listen address")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	profileOnSignal(ctx)
	memLimit, err := engine.TuneGC()
	if err != nil {
		return err
	}
	if budget, ok := engine.ResidentBudget(); ok {
		go engine.HoldResident(ctx, budget)
	}
	srv, err := engine.Start(ctx, engine.Config{DataDir: *data, Addr: *listen})
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stdout, "aisle engine listening on %s (data %s, Go heap limit %s)\n", srv.URL(), *data, heapLimit(memLimit))
	<-ctx.Done()
	return srv.Close()
}

// heapLimit renders a GOMEMLIMIT for people: math.MaxInt64 is Go's "no limit".
func heapLimit(limit int64) string {
	if limit == math.MaxInt64 {
		return "none"
	}
	return fmt.Sprintf("%d MiB", limit>>20)
}
