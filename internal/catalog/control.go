package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/optype"

	"github.com/aislehq/aisle/internal/controlindex"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
)

// revisionID is the id of the revision document in the control index.
const revisionID = "revision"

// control reads and writes control documents with optimistic concurrency.
type control struct {
	es      *elasticsearch.TypedClient
	ensured sync.Map // control index name -> struct{}
}

func newControl(client *elasticsearch.TypedClient) *control {
	return &control{es: client}
}

// versioned is a control document with what a compare-and-set needs.
type versioned struct {
	found bool
	seq   int64
	term  int64
	src   json.RawMessage
}

// ensure creates the control index once per process (another replica may win the race).
func (c *control) ensure(ctx context.Context, index string) error {
	if _, ok := c.ensured.Load(index); ok {
		return nil
	}
	if err := controlindex.Create(ctx, c.es, index); err != nil {
		return err
	}
	c.ensured.Store(index, struct{}{})
	return nil
}

// get reads a control document in real time.
func (c *control) get(ctx context.Context, index, id string) (versioned, error) {
	if err := c.ensure(ctx, index); err != nil {
		return versioned{}, err
	}
	res, err := c.es.Get(index, id).Realtime(true).Do(ctx)
	if err != nil {
		return versioned{}, fmt.Errorf("reading control document %s/%s: %w", index, id, es.Classify(err))
	}
	if !res.Found || res.SeqNo_ == nil || res.PrimaryTerm_ == nil {
		return versioned{}, nil
	}
	return versioned{found: true, seq: *res.SeqNo_, term: *res.PrimaryTerm_, src: res.Source_}, nil
}

// put writes a control document: created when prev is not found, else replaced only if
// unchanged since prev was read. es.ErrConflict means someone else changed it first.
func (c *control) put(ctx context.Context, index, id string, prev versioned, doc any) (versioned, error) {
	raw, err := json.Marshal(doc)
	if err != nil {
		return versioned{}, fmt.Errorf("encoding control document %s: %w", id, err)
	}
	req := c.es.Index(index).Id(id).Raw(bytes.NewReader(raw))
	if prev.found {
		req = req.IfSeqNo(strconv.FormatInt(prev.seq, 10)).IfPrimaryTerm(strconv.FormatInt(prev.term, 10))
	} else {
		req = req.OpType(optype.Create)
	}
	res, err := req.Do(ctx)
	if err != nil {
		return versioned{}, fmt.Errorf("writing control document %s/%s: %w", index, id, es.Classify(err))
	}
	out := versioned{found: true, src: raw}
	if res.SeqNo_ != nil && res.PrimaryTerm_ != nil {
		out.seq, out.term = *res.SeqNo_, *res.PrimaryTerm_
	}
	return out, nil
}

// overwrite writes a control document that has a single owner, without a check.
func (c *control) overwrite(ctx context.Context, index, id string, doc any) error {
	if err := c.ensure(ctx, index); err != nil {
		return err
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return fmt.Errorf("encoding control document %s: %w", id, err)
	}
	if _, err := c.es.Index(index).Id(id).Raw(bytes.NewReader(raw)).Do(ctx); err != nil {
		return fmt.Errorf("writing control document %s/%s: %w", index, id, es.Classify(err))
	}
	return nil
}

// del deletes a control document if unchanged since prev was read (absent is fine).
func (c *control) del(ctx context.Context, index, id string, prev versioned) error {
	req := c.es.Delete(index, id)
	if prev.found {
		req = req.IfSeqNo(strconv.FormatInt(prev.seq, 10)).IfPrimaryTerm(strconv.FormatInt(prev.term, 10))
	}
	_, err := req.Do(ctx)
	if err := es.Classify(err); err != nil && !errors.Is(err, es.ErrNotFound) {
		return fmt.Errorf("deleting control document %s/%s: %w", index, id, err)
	}
	return nil
}

// readControl reads control document id of names and decodes it; a missing one is
// the zero T.
func readControl[T any](ctx context.Context, c *control, names esnames.Index, id string) (T, versioned, error) {
	var doc T
	v, err := c.get(ctx, names.Control(), id)
	if err != nil || !v.found {
		return doc, v, err
	}
	if err := json.Unmarshal(v.src, &doc); err != nil {
		return doc, v, fmt.Errorf("decoding control document %s of %s: %w", id, names.Alias(), err)
	}
	return doc, v, nil
}

// loadState reads the revision document; a missing one is the zero state.
func (s *Service) loadState(ctx context.Context, names esnames.Index) (State, versioned, error) {
	return readControl[State](ctx, s.ctl, names, revisionID)
}

// backoff is a full-jitter exponential delay.
func backoff(attempt int, base, limit time.Duration) time.Duration {
	d := base << min(attempt, 16)
	if d > limit || d <= 0 {
		d = limit
	}
	return time.Duration(rand.Int64N(int64(d))) + base
}

// every calls fn every period until ctx ends or fn returns false.
func every(ctx context.Context, period time.Duration, fn func() bool) {
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if !fn() {
				return
			}
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// waitFor retries fn while it returns one of the retryable errors, until ctx ends or
// limit passes; it returns fn's last error then.
func waitFor(ctx context.Context, limit time.Duration, fn func() error, retryable ...error) error {
	deadline := time.Now().Add(limit)
	for attempt := 0; ; attempt++ {
		err := fn()
		if err == nil || !isAny(err, retryable) || time.Now().After(deadline) {
			return err
		}
		if err := sleep(ctx, backoff(attempt, 5*time.Millisecond, 250*time.Millisecond)); err != nil {
			return err
		}
	}
}

func isAny(err error, targets []error) bool {
	for _, t := range targets {
		if errors.Is(err, t) {
			return true
		}
	}
	return false
}
