package searchlog

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/prometheus/client_golang/prometheus"
)

// Defaults of Config.
const (
	DefaultBuffer   = 10000
	DefaultBatch    = 1000
	DefaultInterval = time.Second
	DefaultTimeout  = 5 * time.Second
)

// Why a search was not recorded (the reason label of aisle_searchlog_dropped_total).
const (
	DropFull   = "full"   // the queue was full: the backend is slower than the searches
	DropFailed = "failed" // the backend refused or did not answer in time
)

// Config tunes a Recorder; zero values take the defaults.
type Config struct {
	// Buffer is how many searches wait to be written at most; more are dropped.
	Buffer int
	// Batch is how many searches one _bulk writes at most.
	Batch int
	// Interval is how long a search waits at most before its batch is written.
	Interval time.Duration
	// Timeout bounds one write (index creation and _bulk): what is not written by then
	// is dropped, so a slow backend never holds the queue.
	Timeout time.Duration
	// Logger says when searches were dropped (once per write); nil uses slog.Default.
	Logger *slog.Logger
	// Clock dates the searches recorded without a time (default time.Now); tests move
	// it across days instead of sleeping.
	Clock func() time.Time
}

// Recorder queues answered searches and writes them in bulk in the background (Run).
// A nil *Recorder records nothing.
type Recorder struct {
	es      *elasticsearch.TypedClient
	cfg     Config
	queue   chan Search
	ensured sync.Map // UID + index name -> struct{}: created with its mapping

	written prometheus.Counter
	dropped *prometheus.CounterVec
}

// New returns a recorder writing through client; call Run to write.
func New(client *elasticsearch.TypedClient, cfg Config) *Recorder {
	cfg = withDefaults(cfg)
	return &Recorder{es: client, cfg: cfg, queue: make(chan Search, cfg.Buffer),
		written: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "aisle_searchlog_written_total",
			Help: "Searches written to the search log.",
		}),
		dropped: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "aisle_searchlog_dropped_total",
			Help: "Searches left out of the search log, by reason (full queue, failed write).",
		}, []string{"reason"}),
	}
}

func withDefaults(cfg Config) Config {
	if cfg.Buffer <= 0 {
		cfg.Buffer = DefaultBuffer
	}
	if cfg.Batch <= 0 {
		cfg.Batch = DefaultBatch
	}
	if cfg.Interval <= 0 {
		cfg.Interval = DefaultInterval
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	return cfg
}

// Collectors are the recorder's metrics, to register where the server's are.
func (r *Recorder) Collectors() []prometheus.Collector {
	return []prometheus.Collector{r.written, r.dropped}
}

// Record queues s without ever waiting: a full queue drops it (counted). A search
// without a time is dated now.
func (r *Recorder) Record(s Search) {
	if r == nil {
		return
	}
	if s.At.IsZero() {
		s.At = r.cfg.Clock()
	}
	select {
	case r.queue <- s:
	default:
		r.dropped.WithLabelValues(DropFull).Inc()
	}
}

// Run writes queued searches until ctx ends, every Interval or as soon as a batch is
// full; then it writes what is still queued, within one Timeout.
func (r *Recorder) Run(ctx context.Context) {
	tick := time.NewTicker(r.cfg.Interval)
	defer tick.Stop()
	batch := make([]Search, 0, r.cfg.Batch)
	for {
		select {
		case s := <-r.queue:
			if batch = append(batch, s); len(batch) < r.cfg.Batch {
				continue
			}
		case <-tick.C:
		case <-ctx.Done():
			r.write(context.WithoutCancel(ctx), r.drain(batch))
			return
		}
		r.write(ctx, batch)
		batch = batch[:0]
	}
}

// drain adds to batch what is queued now.
func (r *Recorder) drain(batch []Search) []Search {
	for {
		select {
		case s := <-r.queue:
			batch = append(batch, s)
		default:
			return batch
		}
	}
}

// write writes batch within one Timeout, counting what it wrote and what it dropped.
func (r *Recorder) write(ctx context.Context, batch []Search) {
	if len(batch) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	written, err := r.bulk(ctx, batch)
	r.written.Add(float64(written))
	if lost := len(batch) - written; lost > 0 {
		r.dropped.WithLabelValues(DropFailed).Add(float64(lost))
		r.cfg.Logger.WarnContext(ctx, "searches left out of the search log",
			slog.Int("dropped", lost), slog.Any("error", err))
	}
}
