package controlindex

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/optype"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
)

// Store reads and writes control documents with optimistic concurrency: a change is a
// create (op_type=create) or a compare-and-set on the seq_no and primary term it read.
type Store struct {
	es      *elasticsearch.TypedClient
	ensured sync.Map // control index name -> struct{}
}

// NewStore returns a store on client.
func NewStore(client *elasticsearch.TypedClient) *Store {
	return &Store{es: client}
}

// Versioned is a control document with what a compare-and-set needs.
type Versioned struct {
	Found bool
	Seq   int64
	Term  int64
	Src   json.RawMessage
}

// Ensure creates the control index once per process (another replica may win the race).
func (c *Store) Ensure(ctx context.Context, index string) error {
	if _, ok := c.ensured.Load(index); ok {
		return nil
	}
	if err := Create(ctx, c.es, index); err != nil {
		return err
	}
	c.ensured.Store(index, struct{}{})
	return nil
}

// Get reads a control document in real time.
func (c *Store) Get(ctx context.Context, index, id string) (Versioned, error) {
	if err := c.Ensure(ctx, index); err != nil {
		return Versioned{}, err
	}
	res, err := c.es.Get(index, id).Realtime(true).Do(ctx)
	if err != nil {
		return Versioned{}, fmt.Errorf("reading control document %s/%s: %w", index, id, es.Classify(err))
	}
	if !res.Found || res.SeqNo_ == nil || res.PrimaryTerm_ == nil {
		return Versioned{}, nil
	}
	return Versioned{Found: true, Seq: *res.SeqNo_, Term: *res.PrimaryTerm_, Src: res.Source_}, nil
}

// Put writes a control document: created when prev is not found, else replaced only if
// unchanged since prev was read. es.ErrConflict means someone else changed it first.
func (c *Store) Put(ctx context.Context, index, id string, prev Versioned, doc any) (Versioned, error) {
	raw, err := json.Marshal(doc)
	if err != nil {
		return Versioned{}, fmt.Errorf("encoding control document %s: %w", id, err)
	}
	req := c.es.Index(index).Id(id).Raw(bytes.NewReader(raw))
	if prev.Found {
		req = req.IfSeqNo(strconv.FormatInt(prev.Seq, 10)).IfPrimaryTerm(strconv.FormatInt(prev.Term, 10))
	} else {
		req = req.OpType(optype.Create)
	}
	res, err := req.Do(ctx)
	if err != nil {
		return Versioned{}, fmt.Errorf("writing control document %s/%s: %w", index, id, es.Classify(err))
	}
	out := Versioned{Found: true, Src: raw}
	if res.SeqNo_ != nil && res.PrimaryTerm_ != nil {
		out.Seq, out.Term = *res.SeqNo_, *res.PrimaryTerm_
	}
	return out, nil
}

// Overwrite writes a control document that has a single owner, without a check.
func (c *Store) Overwrite(ctx context.Context, index, id string, doc any) error {
	if err := c.Ensure(ctx, index); err != nil {
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

// Delete deletes a control document if unchanged since prev was read (absent is fine).
func (c *Store) Delete(ctx context.Context, index, id string, prev Versioned) error {
	req := c.es.Delete(index, id)
	if prev.Found {
		req = req.IfSeqNo(strconv.FormatInt(prev.Seq, 10)).IfPrimaryTerm(strconv.FormatInt(prev.Term, 10))
	}
	_, err := req.Do(ctx)
	if err := es.Classify(err); err != nil && !errors.Is(err, es.ErrNotFound) {
		return fmt.Errorf("deleting control document %s/%s: %w", index, id, err)
	}
	return nil
}

// Read reads control document id of names and decodes it; a missing one is the zero T.
func Read[T any](ctx context.Context, c *Store, names esnames.Index, id string) (T, Versioned, error) {
	var doc T
	v, err := c.Get(ctx, names.Control(), id)
	if err != nil || !v.Found {
		return doc, v, err
	}
	if err := json.Unmarshal(v.Src, &doc); err != nil {
		return doc, v, fmt.Errorf("decoding control document %s of %s: %w", id, names.Alias(), err)
	}
	return doc, v, nil
}
