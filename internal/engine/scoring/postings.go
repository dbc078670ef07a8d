package scoring

import segment "github.com/blevesearch/scorch_segment_api/v2"

// TermsPostings returns the postings lists of each of terms in each of the reader's
// segments (by term, then segment), reading each segment's dictionary of the field once:
// a prefix or fuzzy query's expansions may be hundreds of terms.
func (r *Reader) TermsPostings(field string, terms []string) ([][]segment.PostingsList, error) {
	out := make([][]segment.PostingsList, len(terms))
	for i := range out {
		out[i] = make([]segment.PostingsList, len(r.segs))
	}
	for s, seg := range r.segs {
		d, err := seg.Dictionary(field)
		if err != nil {
			return nil, err
		}
		for i, t := range terms {
			if out[i][s], err = d.PostingsList([]byte(t), nil, nil); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}
