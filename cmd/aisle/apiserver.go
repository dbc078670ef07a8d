package main

import (
	"flag"
	"log/slog"
	"os"

	"github.com/aislehq/aisle/apiserver"
)

func init() {
	commands["apiserver"] = command{summary: "serve the HTTP API (stateless; run any number of replicas)", run: runAPIServer}
}

func runAPIServer(args []string) error {
	fs := flag.NewFlagSet("apiserver", flag.ContinueOnError)
	listen := fs.String("listen", ":8080", "address to serve the HTTP API on")
	kubeconfig := fs.String("kubeconfig", "", "path to a kubeconfig; default: in-cluster config or $KUBECONFIG")
	esURL := fs.String("es-url", os.Getenv("AISLE_ES_URL"), "Elasticsearch (or aisle engine) URL; default $AISLE_ES_URL")
	bodyLimit := fs.Int("body-limit", apiserver.DefaultBodyLimit, "largest request body in bytes")
	if err := fs.Parse(args); err != nil {
		return err
	}
	logger := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	kube, scheme, err := kubeClientConfig(*kubeconfig)
	if err != nil {
		return err
	}
	ctx, stop := signalContext()
	defer stop()
	return apiserver.Run(ctx, kube, scheme, apiserver.RunOptions{
		Addr:   *listen,
		ESURL:  *esURL,
		Config: apiserver.Config{BodyLimit: *bodyLimit, Logger: logger},
	})
}
