package zap

import (
	"errors"

	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// This file holds the one change of this fork's file format (see FORK.md). zapx v17
// writes each occurrence of a term as five or more uvarints (field number, position, start
// and end byte offsets, count of array positions, array positions) behind a byte count;
// the engine needs only the position, for phrase queries. An occurrence here is one
// uvarint, its position, and a posting with locations holds exactly as many as its
// frequency, so no byte count is needed either. That cut the catalog benchmark's index
// by about a third.

// errLocations refuses what this format cannot hold: a field with array positions, or a
// composite field whose frequency differs from its number of locations.
var errLocations = errors.New("aisle-zap: locations must be one position per occurrence, without array positions")

// encodeMergedPositions writes the positions of a merged segment's posting.
func encodeMergedPositions(enc *chunkedIntCoder, docNum, freq uint64, locs []segment.Location) error {
	if uint64(len(locs)) != freq {
		return errLocations
	}
	for _, l := range locs {
		if len(l.ArrayPositions()) > 0 {
			return errLocations
		}
		if err := enc.Add(docNum, l.Pos()); err != nil {
			return err
		}
	}
	return nil
}

// skipPositions moves r past a posting's n positions.
func skipPositions(r *chunkedIntDecoder, n uint64) {
	for ; n > 0; n-- {
		r.SkipUvarint()
	}
}
