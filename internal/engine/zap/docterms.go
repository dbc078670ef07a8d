package zap

import index "github.com/blevesearch/bleve_index_api"

// docTerm is one term of one field of a document of a new segment, with the postings
// list it goes to.
type docTerm struct {
	pid uint64
	tf  *index.TokenFreq
	fid uint16
}

// docTerms keeps, per document of a new segment, the postings lists that realloc found
// for its terms, so that process adds the document to them without iterating its
// fields' frequency maps and looking each term up again. A document with two fields of
// one name is left out: process merges their frequencies first.
type docTerms struct {
	all    []docTerm
	ends   []int  // per document, where its terms end in all
	mixed  []bool // per document: two fields of one name
	seenIn []int  // per field, the last document that had it, plus one
}

func (d *docTerms) reset(numDocs int) {
	clear(d.all) // the frequencies belong to the documents
	d.all = d.all[:0]
	d.ends = resized(d.ends, numDocs)
	d.mixed = resized(d.mixed, numDocs)
	d.seenIn = d.seenIn[:0]
}

// resized is s with n zero values.
func resized[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// field notes that document docNum has field fid; it reports whether the document's
// terms are kept.
func (d *docTerms) field(fid uint16, docNum int) bool {
	for int(fid) >= len(d.seenIn) {
		d.seenIn = append(d.seenIn, 0)
	}
	if d.seenIn[fid] == docNum+1 {
		d.mixed[docNum] = true
	}
	d.seenIn[fid] = docNum + 1
	return !d.mixed[docNum]
}

func (d *docTerms) add(fid uint16, pid uint64, tf *index.TokenFreq) {
	d.all = append(d.all, docTerm{pid: pid, tf: tf, fid: fid})
}

// endDoc marks the end of document docNum's terms.
func (d *docTerms) endDoc(docNum int) { d.ends[docNum] = len(d.all) }

// of returns the terms of document docNum; ok is false when they were not kept.
func (d *docTerms) of(docNum uint32) (terms []docTerm, ok bool) {
	if int(docNum) >= len(d.ends) || d.mixed[docNum] {
		return nil, false
	}
	start := 0
	if docNum > 0 {
		start = d.ends[docNum-1]
	}
	return d.all[start:d.ends[docNum]], true
}
