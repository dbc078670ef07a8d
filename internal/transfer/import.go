package transfer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// ImportOptions tune an import.
type ImportOptions struct {
	BatchSize int // records a request, 1 to PageSize; 0 means PageSize
	// After skips the records up to this input line (a resumed import's checkpoint).
	After int
	// Skipped hears each input line that holds no usable record.
	Skipped func(*LineError)
	// Acked hears each batch the API acknowledged with a receipt, in input order.
	Acked func(Ack) error
}

// Ack is a batch the API took: its receipt and how far the input is done.
type Ack struct {
	Line    int // every record up to this input line is written
	Records int // records written by this import so far
	Receipt Receipt
}

// Result sums up an import.
type Result struct {
	Records int
	Batches int
	Skipped int
	Receipt Receipt // the last write's receipt (the commit's for a staged replacement)
}

func (o ImportOptions) batcher(src Source, res *Result) (*batcher, error) {
	size := o.BatchSize
	if size == 0 {
		size = PageSize
	}
	if size < 1 || size > PageSize {
		return nil, fmt.Errorf("batch size %d: it must be 1 to %d", size, PageSize)
	}
	return &batcher{src: src, size: size, after: o.After, skipped: func(e *LineError) {
		res.Skipped++
		if o.Skipped != nil {
			o.Skipped(e)
		}
	}}, nil
}

// Import adds or replaces the source's records with POST /records, a batch at a time,
// each batch acknowledged by its receipt before the next is sent. Records already in
// the index and not in the source stay.
func (c *Client) Import(ctx context.Context, src Source, opts ImportOptions) (Result, error) {
	var res Result
	b, err := opts.batcher(src, &res)
	if err != nil {
		return res, err
	}
	for {
		next, err := b.next()
		if errors.Is(err, io.EOF) {
			return res, nil
		}
		if err != nil {
			return res, fmt.Errorf("reading the input: %w", err)
		}
		var receipt Receipt
		if _, err := c.call(ctx, http.MethodPost, "/records", nil, next.body, &receipt); err != nil {
			return res, refusal(err, next)
		}
		if receipt.AcceptedRevision <= 0 {
			return res, fmt.Errorf("batch of lines %d to %d: the answer holds no write receipt", next.lines[0], next.lastLine)
		}
		res.Records += len(next.lines)
		res.Batches++
		res.Receipt = receipt
		if opts.Acked != nil {
			if err := opts.Acked(Ack{Line: next.lastLine, Records: res.Records, Receipt: receipt}); err != nil {
				return res, err
			}
		}
	}
}
