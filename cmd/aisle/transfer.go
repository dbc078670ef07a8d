package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/term"

	"github.com/aislehq/aisle/internal/transfer"
)

func init() {
	commands["export"] = command{summary: "write every record of an index as NDJSON", run: runExport}
	commands["import"] = command{summary: "import records (NDJSON, CSV) or a Google Merchant Center feed into an index", run: runImport}
}

// apiFlags are the flags naming an index of the HTTP API and the key to reach it.
type apiFlags struct {
	url, workspace, index, key string
}

func bindAPIFlags(fs *flag.FlagSet) *apiFlags {
	f := &apiFlags{}
	fs.StringVar(&f.url, "url", os.Getenv("AISLE_URL"), "base URL of the API server (default $AISLE_URL)")
	fs.StringVar(&f.workspace, "workspace", os.Getenv("AISLE_WORKSPACE"), "workspace of the index (default $AISLE_WORKSPACE)")
	fs.StringVar(&f.index, "index", "", "index name")
	fs.StringVar(&f.key, "key", os.Getenv("AISLE_API_KEY"), "API key with the write scope (default $AISLE_API_KEY)")
	return f
}

func (f *apiFlags) client() (*transfer.Client, error) {
	for _, req := range [][2]string{{"--url", f.url}, {"--workspace", f.workspace}, {"--index", f.index}, {"--key", f.key}} {
		if req[1] == "" {
			return nil, fmt.Errorf("%s is required", req[0])
		}
	}
	return &transfer.Client{BaseURL: f.url, Workspace: f.workspace, Index: f.index, Key: f.key, Retry: transfer.DefaultRetry}, nil
}

func runExport(args []string) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	api := bindAPIFlags(fs)
	out := fs.String("out", "", "file to write (default standard output)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	c, err := api.client()
	if err != nil {
		return err
	}
	var w io.Writer = os.Stdout
	var file *os.File
	if *out != "" {
		if file, err = os.Create(*out); err != nil {
			return err
		}
		w = file
	}
	ctx, stop := signalContext()
	defer stop()
	n, err := c.Export(ctx, w, nil)
	if file != nil {
		err = errors.Join(err, file.Close())
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "exported %d records\n", n)
	return nil
}

func runImport(args []string) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: aisle import [flags] file.ndjson|file.csv\n       aisle import [flags] --feed products.xml|products.txt")
		fs.PrintDefaults()
	}
	api := bindAPIFlags(fs)
	batchSize := fs.Int("batch-size", transfer.PageSize, "records a request (1 to 1000)")
	resume := fs.Bool("resume", false, "go on after the checkpoint an interrupted import left beside the file")
	feedPath := fs.String("feed", "", "a Google Merchant Center feed (RSS, Atom or tab-separated) to make the whole catalog, in one staged replacement")
	if err := fs.Parse(args); err != nil {
		return err
	}
	c, err := api.client()
	if err != nil {
		return err
	}
	ctx, stop := signalContext()
	defer stop()
	opts := transfer.ImportOptions{BatchSize: *batchSize, Skipped: func(e *transfer.LineError) {
		fmt.Fprintln(os.Stderr, "skipped", e.Error())
	}}
	progress := func(size int64) transfer.Progress {
		return transfer.NewProgress(os.Stderr, size, term.IsTerminal(int(os.Stderr.Fd())), 5*time.Second)
	}
	var res transfer.Result
	switch {
	case *feedPath != "" && fs.NArg() == 0:
		if *resume {
			return errors.New("--resume: a feed import is one staged replacement, which starts over")
		}
		res, err = importFeed(ctx, c, *feedPath, opts, progress)
	case *feedPath == "" && fs.NArg() == 1:
		res, err = c.ImportFile(ctx, transfer.FileImport{Path: fs.Arg(0), Resume: *resume, Options: opts, Progress: progress})
	default:
		fs.Usage()
		return errors.New("give one file of records, or --feed and no file")
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "imported %d records in %d batches (%d lines skipped); receipt: acceptedRevision %d, recordCount %d\n",
		res.Records, res.Batches, res.Skipped, res.Receipt.AcceptedRevision, res.Receipt.RecordCount)
	return nil
}

func importFeed(ctx context.Context, c *transfer.Client, path string, opts transfer.ImportOptions, progress func(int64) transfer.Progress) (transfer.Result, error) {
	return c.ImportFeedFile(ctx, path, opts, progress)
}
