package zap

import (
	"math"

	"github.com/blevesearch/vellum"
)

// VisitFreqNorms calls visit with each document of the postings list, deleted ones
// included, in order, with its frequency and its norm bits (the field's length in the
// document, see section_inverted_text_index.go). It reads the frequencies and norms
// chunk by chunk without a PostingsIterator's per-posting bookkeeping: the engine reads
// a whole field this way once per segment, for Lucene's field statistics and norms.
// This file is an addition of the fork (see FORK.md).
func (p *PostingsList) VisitFreqNorms(visit func(doc, freq, normBits uint64)) error {
	if p.normBits1Hit != 0 {
		visit(p.docNum1Hit, 1, p.normBits1Hit)
		return nil
	}
	if p.postings == nil {
		return nil
	}
	if p.chunkSize == 0 {
		return ErrChunkSizeZero
	}
	dec := newChunkedIntDecoder(p.sb.mem, p.freqOffset, nil, p.sb.fileReader)
	chunk := uint64(math.MaxUint64)
	it := p.postings.ManyIterator()
	var docs [256]uint32
	for n := it.NextMany(docs[:]); n > 0; n = it.NextMany(docs[:]) {
		for _, d := range docs[:n] {
			doc := uint64(d)
			if c := doc / p.chunkSize; c != chunk {
				if err := dec.loadChunk(int(c)); err != nil {
					return err
				}
				chunk = c
			}
			freq, normBits, err := readFreqNorm(dec)
			if err != nil {
				return err
			}
			visit(doc, freq, normBits)
		}
	}
	return nil
}

// readFreqNorm reads one posting's frequency and norm bits; a field without frequencies
// has no norm either.
func readFreqNorm(dec *chunkedIntDecoder) (freq, normBits uint64, err error) {
	freqHasLocs, err := dec.readUvarint()
	if err != nil {
		return 0, 0, err
	}
	freq, _ = decodeFreqHasLocs(freqHasLocs)
	if freq > 0 {
		normBits, err = dec.readUvarint()
	}
	return freq, normBits, err
}

// VisitFreqNorms calls visit with every posting of every term of the dictionary (see
// PostingsList.VisitFreqNorms), walking the terms' postings in dictionary order.
func (d *Dictionary) VisitFreqNorms(visit func(doc, freq, normBits uint64)) error {
	if d.fst == nil {
		return nil
	}
	itr, err := d.fst.Iterator(nil, nil)
	var pl *PostingsList
	for err == nil {
		_, postingsOffset := itr.Current()
		if pl, err = d.postingsListFromOffset(postingsOffset, nil, pl); err != nil {
			return err
		}
		if err = pl.VisitFreqNorms(visit); err != nil {
			return err
		}
		err = itr.Next()
	}
	if err == vellum.ErrIteratorDone {
		return nil
	}
	return err
}
