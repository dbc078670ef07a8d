package store

// noteVisibleLocked remembers, for a document first written since the last refresh, the
// seq_no of the copy searches still see (-1: none). delete_by_query deletes with that
// seq_no, so a document changed after the refresh is a version conflict, as in ES (which
// searches the refreshed view and deletes with if_seq_no). Called with ix.mu held.
func (ix *Index) noteVisibleLocked(id string, cur docState, found bool) {
	if ix.visibleSeq == nil {
		ix.visibleSeq = map[string]int64{}
	}
	if _, ok := ix.visibleSeq[id]; ok {
		return
	}
	seq := int64(-1)
	if found && !cur.Deleted {
		seq = cur.SeqNo
	}
	ix.visibleSeq[id] = seq
}

// SearchedSeqNo returns the seq_no and primary term of the copy of a document that
// searches see.
func (ix *Index) SearchedSeqNo(id string) (seq, term int64) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if s, ok := ix.visibleSeq[id]; ok {
		return s, PrimaryTerm
	}
	if d, ok := ix.docs[id]; ok && !d.Deleted {
		return d.SeqNo, PrimaryTerm
	}
	return -1, PrimaryTerm
}
