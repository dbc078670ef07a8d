package transfer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// FileImport is an import of a file of records (NDJSON, or CSV by its .csv name).
type FileImport struct {
	Path    string
	Resume  bool // go on after the checkpoint beside the file, if there is one
	Options ImportOptions
	// Progress, when set, is made for the input's size.
	Progress func(size int64) Progress
}

// ImportFile imports a file with POST /records batches. After each acknowledged batch
// it records the last line done in a checkpoint beside the file, which it removes when
// the import completes; a failed import keeps it, for --resume.
func (c *Client) ImportFile(ctx context.Context, fi FileImport) (Result, error) {
	cpPath := CheckpointPath(fi.Path)
	cp, found, err := LoadCheckpoint(cpPath)
	if err != nil {
		return Result{}, err
	}
	switch {
	case found && !fi.Resume:
		return Result{}, fmt.Errorf("%s records an earlier import up to line %d: resume it (--resume) or remove the file", cpPath, cp.Line)
	case found:
		if fi.Options.After, err = cp.ResumeFrom(c.Workspace, c.Index); err != nil {
			return Result{}, err
		}
	}
	f, err := os.Open(fi.Path)
	if err != nil {
		return Result{}, fmt.Errorf("opening the input: %w", err)
	}
	defer f.Close()
	counted := &countingReader{r: f}
	src, err := OpenSource(fi.Path, counted)
	if err != nil {
		return Result{}, err
	}
	var progress Progress
	if fi.Progress != nil {
		progress = fi.Progress(fileSize(f))
	}
	done := cp.Records
	opts := fi.Options
	opts.Acked = func(a Ack) error {
		if progress != nil {
			progress.Update(counted.n.Load(), done+a.Records)
		}
		next := Checkpoint{Workspace: c.Workspace, Index: c.Index, Line: a.Line, Records: done + a.Records, AcceptedRevision: a.Receipt.AcceptedRevision}
		if err := next.Save(cpPath); err != nil {
			return err
		}
		if fi.Options.Acked != nil {
			return fi.Options.Acked(a)
		}
		return nil
	}
	res, err := c.Import(ctx, src, opts)
	if err != nil {
		return res, err
	}
	if progress != nil {
		progress.Finish(done + res.Records)
	}
	if err := os.Remove(cpPath); err != nil && !errors.Is(err, os.ErrNotExist) {
		return res, fmt.Errorf("removing the checkpoint of the completed import: %w", err)
	}
	return res, nil
}

// OpenSource reads records from r by the file name: CSV for .csv, NDJSON otherwise.
func OpenSource(name string, r io.Reader) (Source, error) {
	if strings.EqualFold(filepath.Ext(name), ".csv") {
		return NewCSV(r)
	}
	return NewNDJSON(r), nil
}

func fileSize(f *os.File) int64 {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return -1
	}
	return st.Size()
}
