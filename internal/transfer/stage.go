package transfer

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// StageStatus is the API's status of a staged replacement.
type StageStatus struct {
	StageID string   `json:"stageId"`
	State   string   `json:"state"`
	Batches int      `json:"batches"`
	Records int      `json:"records"`
	Receipt *Receipt `json:"receipt"`
}

// NewStageID returns a stage ID no other import picks: the time and random bits.
func NewStageID(now time.Time) string {
	var r [6]byte
	_, _ = rand.Read(r[:]) // crypto/rand never fails on a supported platform
	return "import-" + now.UTC().Format("20060102T150405") + "-" + hex.EncodeToString(r[:])
}

// BatchID is the ID of the n-th (1-based) batch of a stage.
func BatchID(n int) string { return fmt.Sprintf("b%06d", n) }

func stagePath(id string) string { return "/staged-replacements/" + url.PathEscape(id) }

// Replace makes the source the whole catalog of the index: it uploads every record into
// a staged replacement and commits it, so the index switches to the new catalog in one
// step and records not in the source are gone. When anything fails the stage is
// aborted and the index keeps its catalog. A source with no records switches nothing.
func (c *Client) Replace(ctx context.Context, src Source, stageID string, opts ImportOptions) (res Result, err error) {
	if opts.After != 0 {
		return res, errors.New("a staged replacement starts over: it cannot resume")
	}
	b, err := opts.batcher(src, &res)
	if err != nil {
		return res, err
	}
	started := false
	defer func() {
		if err != nil && started {
			err = errors.Join(err, c.abort(ctx, stageID))
		}
	}()
	for {
		next, err := b.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return res, fmt.Errorf("reading the input: %w", err)
		}
		if !started {
			if err := c.startStage(ctx, stageID); err != nil {
				return res, err
			}
			started = true
		}
		path := stagePath(stageID) + "/batches/" + BatchID(res.Batches+1)
		if _, err := c.call(ctx, http.MethodPost, path, nil, next.body, nil); err != nil {
			return res, refusal(err, next)
		}
		res.Records += len(next.lines)
		res.Batches++
		if opts.Acked != nil {
			if err := opts.Acked(Ack{Line: next.lastLine, Records: res.Records}); err != nil {
				return res, err
			}
		}
	}
	if !started {
		return res, errors.New("the input holds no record: nothing was switched in")
	}
	res.Receipt, err = c.commit(ctx, stageID, res.Batches, res.Records)
	return res, err
}

func (c *Client) startStage(ctx context.Context, stageID string) error {
	var st StageStatus
	status, err := c.call(ctx, http.MethodPost, stagePath(stageID), nil, nil, &st)
	if err != nil {
		return fmt.Errorf("starting the staged replacement: %w", err)
	}
	if status != http.StatusCreated || st.State != "open" {
		// Another import already uses this stage ID: its batches are not ours.
		return fmt.Errorf("starting the staged replacement: stage %s already exists (%s)", stageID, st.State)
	}
	return nil
}

func (c *Client) commit(ctx context.Context, stageID string, batches, records int) (Receipt, error) {
	body, err := json.Marshal(map[string]int{"expectedBatches": batches, "expectedRecords": records})
	if err != nil {
		return Receipt{}, err
	}
	var receipt Receipt
	if _, err := c.call(ctx, http.MethodPost, stagePath(stageID)+"/commit", nil, body, &receipt); err != nil {
		return Receipt{}, fmt.Errorf("committing the staged replacement: %w", err)
	}
	if receipt.AcceptedRevision <= 0 {
		return Receipt{}, errors.New("committing the staged replacement: the answer holds no write receipt")
	}
	return receipt, nil
}

// abort abandons the stage, even when ctx was cancelled (Ctrl-C must not leave it open).
func (c *Client) abort(ctx context.Context, stageID string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	_, err := c.call(ctx, http.MethodDelete, stagePath(stageID), nil, nil, nil)
	if err != nil {
		return fmt.Errorf("aborting the staged replacement %s: %w", stageID, err)
	}
	return nil
}
