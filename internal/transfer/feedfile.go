package transfer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/aislehq/aisle/internal/feed"
)

// feedSource reads a Merchant Center feed as records.
type feedSource struct{ r feed.Reader }

func (s feedSource) Next() (Item, error) {
	p, err := s.r.Next()
	var itemErr *feed.ItemError
	if errors.As(err, &itemErr) {
		return Item{}, &LineError{Line: itemErr.Line, Reason: itemErr.Reason}
	}
	if err != nil {
		return Item{}, err
	}
	return Item{Line: p.Line, Record: p.Record}, nil
}

// FeedSource reads the products of a Google Merchant Center feed (RSS, Atom or
// tab-separated) as records.
func FeedSource(r feed.Reader) Source { return feedSource{r: r} }

// ImportFeedFile makes a feed file the whole catalog of the index in one staged
// replacement: products no longer in the feed are gone at the same switch, malformed
// items are reported and skipped, and a failed import switches nothing in.
func (c *Client) ImportFeedFile(ctx context.Context, path string, opts ImportOptions, progress func(size int64) Progress) (Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return Result{}, fmt.Errorf("opening the feed: %w", err)
	}
	defer f.Close()
	counted := &countingReader{r: f}
	var p Progress
	if progress != nil {
		p = progress(fileSize(f))
		acked := opts.Acked
		opts.Acked = func(a Ack) error {
			p.Update(counted.n.Load(), a.Records)
			if acked != nil {
				return acked(a)
			}
			return nil
		}
	}
	res, err := c.Replace(ctx, FeedSource(feed.Open(counted)), NewStageID(time.Now()), opts)
	if err != nil {
		return res, err
	}
	if p != nil {
		p.Finish(res.Records)
	}
	return res, nil
}
