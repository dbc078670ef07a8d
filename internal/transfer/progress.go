package transfer

import (
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Progress hears how far an import is: the input bytes read and the records written.
type Progress interface {
	Update(bytes int64, records int)
	Finish(records int)
}

// NewProgress shows progress on w: a bar on a terminal, otherwise a plain line at most
// every interval (logs and CI keep plain lines readable; a bar's redraws are not).
// total is the input's size in bytes, or -1 when unknown.
func NewProgress(w io.Writer, total int64, terminal bool, interval time.Duration) Progress {
	if terminal {
		bar := progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionShowBytes(true),
			progressbar.OptionShowCount(),
			progressbar.OptionSetDescription("importing"),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }),
		)
		return &barProgress{bar: bar}
	}
	return &lineProgress{w: w, total: total, interval: interval}
}

type barProgress struct{ bar *progressbar.ProgressBar }

func (p *barProgress) Update(bytes int64, records int) {
	p.bar.Describe(fmt.Sprintf("importing: %d records", records))
	_ = p.bar.Set64(bytes) // a bar that cannot draw must not stop the import
}

func (p *barProgress) Finish(records int) {
	p.bar.Describe(fmt.Sprintf("imported %d records", records))
	_ = p.bar.Finish()
}

type lineProgress struct {
	w        io.Writer
	total    int64
	interval time.Duration
	last     time.Time
}

func (p *lineProgress) Update(bytes int64, records int) {
	if now := time.Now(); now.Sub(p.last) >= p.interval {
		p.last = now
		fmt.Fprintln(p.w, progressLine(bytes, p.total, records))
	}
}

func (p *lineProgress) Finish(records int) {
	fmt.Fprintf(p.w, "imported %d records\n", records)
}

// progressLine is one plain progress line.
func progressLine(bytes, total int64, records int) string {
	if total <= 0 {
		return fmt.Sprintf("imported %d records (%d bytes read)", records, bytes)
	}
	return fmt.Sprintf("imported %d records (%d%% of the input)", records, min(100, bytes*100/total))
}

// countingReader counts the bytes read through it, for progress.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}
