package transfer

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Checkpoint is how far an import got: every record up to Line was acknowledged by a
// write receipt. It is kept beside the input file so that --resume starts after it.
type Checkpoint struct {
	Workspace string `json:"workspace"`
	Index     string `json:"index"`
	Line      int    `json:"line"`
	Records   int    `json:"records"`
	// AcceptedRevision is the revision of the last acknowledged batch's receipt.
	AcceptedRevision int64 `json:"acceptedRevision"`
}

// CheckpointPath is the checkpoint file of an input file.
func CheckpointPath(input string) string { return input + ".checkpoint" }

// LoadCheckpoint reads a checkpoint; ok is false when there is none.
func LoadCheckpoint(path string) (cp Checkpoint, ok bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Checkpoint{}, false, nil
	}
	if err != nil {
		return Checkpoint{}, false, fmt.Errorf("reading the checkpoint: %w", err)
	}
	if err := json.Unmarshal(data, &cp); err != nil {
		return Checkpoint{}, false, fmt.Errorf("checkpoint %s: %w", path, err)
	}
	return cp, true, nil
}

// Save writes the checkpoint through a temporary file and a rename, so that a crash
// leaves the previous checkpoint or this one, never half of one.
func (cp Checkpoint) Save(path string) error {
	data, err := json.Marshal(cp)
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("checkpoint: %w", err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("checkpoint: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("checkpoint: %w", err)
	}
	return nil
}

// ResumeFrom checks that a checkpoint belongs to this import and returns the line to
// go on after.
func (cp Checkpoint) ResumeFrom(workspace, index string) (int, error) {
	if cp.Workspace != workspace || cp.Index != index {
		return 0, fmt.Errorf("the checkpoint is of an import into %s/%s, not %s/%s", cp.Workspace, cp.Index, workspace, index)
	}
	return cp.Line, nil
}
