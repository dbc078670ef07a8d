package zap

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/RoaringBitmap/roaring/v2"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/fieldstats"
)

// This file is an addition of the fork (see FORK.md): each indexed field's statistics
// and norms (internal/engine/fieldstats), which Lucene keeps in its term dictionary and
// its norms and zapx does not keep at all, summed while the inverted index section
// writes the field's postings, at build and at merge, and stored as a section of their
// own so that a segment written before it reads as one without them.
//
// A field's section: two uvarints fieldNotUninverted (every section starts with its
// doc values' offsets, see loadDvReaders), the field's document count, sum of total
// term frequencies and sum of document frequencies as uvarints, the length of the norms
// and the norms, one byte per document.

func init() {
	registerSegmentSection(SectionFieldStats, &fieldStatsSection{})
}

// fieldStatsSection only says where the inverted index section wrote each field's
// statistics: that section sums them as it writes the postings.
type fieldStatsSection struct{}

func (fieldStatsSection) Process(map[int]resetable, uint32, index.Field, uint16) {}

func (fieldStatsSection) Persist(map[int]resetable, *FileWriter) error { return nil }

func (fieldStatsSection) Merge(map[int]resetable, []*SegmentBase, []*roaring.Bitmap, []string,
	[][]uint64, *FileWriter, chan struct{}) error {
	return nil
}

func (fieldStatsSection) AddrForField(opaque map[int]resetable, fieldID int) int {
	if io, ok := opaque[SectionInvertedTextIndex].(*invertedIndexOpaque); ok {
		return io.statsAddrs[fieldID]
	}
	return 0
}

func (fieldStatsSection) InitOpaque(map[string]interface{}) resetable { return noOpaque{} }

type noOpaque struct{}

func (noOpaque) Reset() error            { return nil }
func (noOpaque) Set(string, interface{}) {}

// writeFieldStats writes a field's statistics and returns where they start, or 0 for a
// field without postings.
func writeFieldStats(acc *fieldstats.Acc, w *FileWriter) (int, error) {
	if acc.DocCount == 0 {
		return 0, nil
	}
	start := w.Count()
	norms := w.process(acc.Norms)
	_, err := writeUvarints(w, fieldNotUninverted, fieldNotUninverted, uint64(acc.DocCount),
		uint64(acc.SumTotalTermFreq), uint64(acc.SumDocFreq), uint64(len(norms)))
	if err == nil {
		_, err = w.Write(norms)
	}
	return start, err
}

// StoredFieldStats returns the field's statistics and a copy of its norms as the segment
// stores them; found is false when it has none (a segment written before they were
// stored, or a field without postings).
func (d *Dictionary) StoredFieldStats() (t fieldstats.Totals, norms []byte, found bool, err error) {
	if d.sb == nil {
		return t, nil, false, nil
	}
	t, norms, found, err = d.sb.fieldStats(d.fieldID)
	return t, bytes.Clone(norms), found, err
}

// fieldStats reads a field's statistics; its norms are the segment's memory.
func (sb *SegmentBase) fieldStats(fieldID uint16) (t fieldstats.Totals, norms []byte, found bool, err error) {
	pos := sb.fieldsSectionsMap[fieldID][SectionFieldStats]
	if pos == 0 {
		return t, nil, false, nil
	}
	mem, field := sb.mem, sb.fieldsInv[fieldID]
	var v [6]uint64
	for i := range v {
		x, n := binary.Uvarint(mem[min(pos, uint64(len(mem))):])
		if n <= 0 {
			return t, nil, false, fmt.Errorf("field %s: statistics unreadable at %d", field, pos)
		}
		v[i], pos = x, pos+uint64(n)
	}
	if v[5] > uint64(len(mem))-pos {
		return t, nil, false, fmt.Errorf("field %s: norms of %d bytes past the segment's end", field, v[5])
	}
	if norms, err = sb.fileReader.process(mem[pos : pos+v[5]]); err != nil {
		return t, nil, false, err
	}
	if uint64(len(norms)) != sb.numDocs {
		return t, nil, false, fmt.Errorf("field %s: %d norms for %d documents", field, len(norms), sb.numDocs)
	}
	t = fieldstats.Totals{DocCount: int64(v[2]), SumTotalTermFreq: int64(v[3]), SumDocFreq: int64(v[4])}
	return t, norms, true, nil
}

// mergeStats sums a merged field's statistics. When every segment merged stores the
// field's norms, the norms of the documents kept are copied, document by document, and
// the postings only summed: setting a norm per posting reads and writes a byte at a
// random place of an array of the merged segment's size for every posting, which cost
// merges of a million documents more than all the rest of the statistics.
type mergeStats struct {
	fieldstats.Acc
	copied bool
}

// start readies the statistics of field, which segs (the merge's segments that hold
// it) give the documents newDocNums says, in a segment of numDocs documents.
func (m *mergeStats) start(segs []*SegmentBase, field string, newDocNums [][]uint64, numDocs uint64) error {
	m.Reset(int(numDocs))
	m.copied = false
	norms := make([][]byte, len(segs))
	for i, sb := range segs {
		_, n, found, err := sb.fieldStats(sb.fieldsMap[field] - 1)
		if err != nil || !found {
			return err
		}
		norms[i] = n
	}
	for i, n := range norms {
		for doc, norm := range n {
			if newDoc := newDocNums[i][doc]; norm != 0 && newDoc != docDropped {
				m.SetNorm(newDoc, norm)
			}
		}
	}
	m.copied = true
	return nil
}

// add counts one posting of the merged segment.
func (m *mergeStats) add(doc, freq, length uint64) {
	if m.copied {
		m.Sum(freq)
		return
	}
	m.Add(doc, freq, length)
}
