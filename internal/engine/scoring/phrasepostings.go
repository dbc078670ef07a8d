package scoring

import (
	"context"
	"io"
	"slices"

	index "github.com/blevesearch/bleve_index_api"
)

// positionPostings are the postings of one phrase position: of its term, or the union
// of its terms' (Lucene's UnionPostingsEnum), with their positions.
type positionPostings struct {
	readers []index.TermFieldReader
	tfds    []*index.TermFieldDoc // each reader's document, nil once it has no more
	bufs    []index.TermFieldDoc
	doc     uint64 // the least of their documents
	started bool
	done    bool
	scratch index.IndexInternalID
}

func openPositionPostings(ctx context.Context, r index.IndexReader, field string, terms []string) (*positionPostings, error) {
	p := &positionPostings{tfds: make([]*index.TermFieldDoc, len(terms)), bufs: make([]index.TermFieldDoc, len(terms)),
		scratch: make(index.IndexInternalID, 8)}
	for _, t := range terms {
		tr, err := r.TermFieldReader(ctx, []byte(t), field, true, false, true)
		if err != nil {
			_ = p.Close()
			return nil, err
		}
		p.readers = append(p.readers, tr)
	}
	return p, nil
}

// advance moves the readers behind target to target or past it.
func (p *positionPostings) advance(target uint64) error {
	if p.started && (p.done || p.doc >= target) {
		return nil
	}
	p.scratch = index.NewIndexInternalID(p.scratch, target)
	for i, tr := range p.readers {
		if p.started && (p.tfds[i] == nil || p.tfds[i].ID.Value() >= target) {
			continue
		}
		var err error
		if p.started {
			p.tfds[i], err = tr.Advance(p.scratch, p.bufs[i].Reset())
		} else {
			p.tfds[i], err = tr.Next(p.bufs[i].Reset())
			for err == nil && p.tfds[i] != nil && p.tfds[i].ID.Value() < target {
				p.tfds[i], err = tr.Advance(p.scratch, p.bufs[i].Reset())
			}
		}
		if err != nil {
			return err
		}
	}
	p.started = true
	p.settle()
	return nil
}

// settle sets doc to the least document of the readers.
func (p *positionPostings) settle() {
	p.done = true
	for _, tfd := range p.tfds {
		if tfd == nil {
			continue
		}
		if id := tfd.ID.Value(); p.done || id < p.doc {
			p.doc, p.done = id, false
		}
	}
}

// positions appends to buf the positions of the terms in the current document,
// ascending (a position held by two terms twice).
func (p *positionPostings) positions(buf []int) []int {
	for _, tfd := range p.tfds {
		if tfd == nil || tfd.ID.Value() != p.doc {
			continue
		}
		for _, v := range tfd.Vectors {
			buf = append(buf, int(v.Pos))
		}
	}
	if len(p.readers) > 1 {
		slices.Sort(buf)
	}
	return buf
}

func (p *positionPostings) count() uint64 {
	var n uint64
	for _, tr := range p.readers {
		n += tr.Count()
	}
	return n
}

func (p *positionPostings) size() int {
	n := 64
	for _, tr := range p.readers {
		n += tr.Size()
	}
	return n
}

// Close closes the readers.
func (p *positionPostings) Close() error { return closeEach(p.readers) }

// closeEach closes each of cs, and returns the first error.
func closeEach[T io.Closer](cs []T) error {
	var first error
	for _, c := range cs {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
