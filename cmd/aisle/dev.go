package main

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/aislehq/aisle/internal/repo"

	"github.com/aislehq/aisle/internal/devenv"
)

func init() {
	commands["dev"] = command{summary: "run everything on this machine (control plane, engine, operator, API server)", run: runDev}
}

func runDev(args []string) error {
	root, err := repo.Root()
	if err != nil {
		return fmt.Errorf("dev runs from the repository: %w", err)
	}
	fs := flag.NewFlagSet("dev", flag.ContinueOnError)
	o := devenv.Options{Root: root, Workspace: "demo"}
	fs.StringVar(&o.DataDir, "data", devenv.DefaultDataDir(root), "folder for etcd and engine data (reused by the next run)")
	fs.StringVar(&o.Listen, "listen", "127.0.0.1:7280", "address of the API server")
	fs.StringVar(&o.EngineAddr, "engine-listen", "127.0.0.1:9200", "address of the embedded engine")
	fs.StringVar(&o.EnvFile, "env-file", filepath.Join(root, "dev-env.json"), "where to write dev-env.json")
	fs.StringVar(&o.Assets, "assets", "", "folder of etcd, kube-apiserver and kubectl (default $KUBEBUILDER_ASSETS or bin/k8s/<version>)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if o.Assets == "" {
		if o.Assets, err = repo.AssetsDir(root); err != nil {
			return err
		}
	}
	o.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	o.Started = func(env devenv.Env) {
		fmt.Printf("\nAisle is running. %s describes it; try:\n\n%s\nThe Events page: %s/dashboard/ (with a search or write key above)\n"+
			"Ctrl-C stops everything; the data stays in %s.\n", o.EnvFile, env.CurlLines(), env.BaseURL, o.DataDir)
	}
	ctx, stop := signalContext()
	defer stop()
	fmt.Printf("starting the control plane, engine, operator and API server (data in %s)...\n", o.DataDir)
	return devenv.Run(ctx, o)
}
