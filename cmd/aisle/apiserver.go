package main

import (
	"flag"
	"fmt"
	"log/slog"
	"os"

	"github.com/aislehq/aisle/apiserver"
	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/events"
)

func init() {
	commands["apiserver"] = command{summary: "serve the HTTP API (stateless; run any number of replicas)", run: runAPIServer}
}

func runAPIServer(args []string) error {
	fs := flag.NewFlagSet("apiserver", flag.ContinueOnError)
	listen := fs.String("listen", ":8080", "address to serve the HTTP API on")
	kubeconfig := fs.String("kubeconfig", "", "path to a kubeconfig; default: in-cluster config or $KUBECONFIG")
	es := bindESConnection(fs)
	bodyLimit := fs.Int("body-limit", apiserver.DefaultBodyLimit, "largest request body in bytes")
	writeLease := fs.Duration("write-lease", catalog.DefaultWriteLease, "longest a record write may take before its revision is given up")
	var limits apiserver.PublicLimits
	fs.IntVar(&limits.PerVisitor, "public-search-per-visitor", 240,
		"public searches a minute one visitor may send to one index, on this replica (with N replicas, give each the limit divided by N)")
	fs.IntVar(&limits.PerIndex, "public-search-per-index", 6000,
		"public searches a minute all visitors may send to one index, on this replica (with N replicas, give each the limit divided by N)")
	fenceLease := fs.Duration("fence-lease", catalog.DefaultFenceLease, "longest a catalog swap may stop writes; a crashed swap's stop ends after it")
	countryHeader := fs.String("country-header", "", "header a trusted proxy in front sets to the visitor's ISO country code (for example CloudFront-Viewer-Country); wins over --country-db")
	countryDB := fs.String("country-db", "", "MaxMind-format country database (.mmdb) to find browsers' countries by address")
	embedderURL := fs.String("embedder-url", os.Getenv("AISLE_EMBEDDER_URL"),
		"base URL of the embedding server used by an openAI embedder that names no url (POST {url}/v1/embeddings); default $AISLE_EMBEDDER_URL")
	if err := fs.Parse(args); err != nil {
		return err
	}
	esURL, err := es.URL()
	if err != nil {
		return fmt.Errorf("apiserver: %w", err)
	}
	countries, err := events.OpenCountries(*countryHeader, *countryDB)
	if err != nil {
		return err
	}
	defer func() { _ = countries.Close() }()
	logger := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	kube, scheme, err := kubeClientConfig(*kubeconfig)
	if err != nil {
		return err
	}
	ctx, stop := signalContext()
	defer stop()
	return apiserver.Run(ctx, kube, scheme, apiserver.RunOptions{
		Addr:   *listen,
		ESURL:  esURL,
		Config: apiserver.Config{BodyLimit: *bodyLimit, Logger: logger, PublicLimits: limits, Countries: countries},
		// Every replica should use the same leases: they bound each other's crashed work.
		CatalogConfig: catalog.Config{WriteLease: *writeLease, FenceLease: *fenceLease},
		EmbedderURL:   *embedderURL,
	})
}
