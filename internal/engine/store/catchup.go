package store

import "sort"

// catchUpBatchDocs is how many documents a catch-up batch holds.
const catchUpBatchDocs = 1000

// catchUpBatch is one bleve batch of a catch-up.
type catchUpBatch struct {
	ids  []string // documents to index again (or delete), in seq_no order
	mark bool     // the batch records the index's seq_no as bleve's
}

// catchUpPlan splits the documents newer than bseq, in seq_no order, into batches of at
// most size. Only the last batch, always present, carries the seq_no mark: scorch
// persists batches in order, so a persisted mark means every document before it is in
// bleve, and a crash before it makes the next open run the whole catch-up again. A mark
// on an earlier batch would let such a crash skip the rest for good.
func catchUpPlan(docs map[string]docState, bseq int64, size int) []catchUpBatch {
	var ids []string
	for id, d := range docs {
		if d.SeqNo > bseq {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return docs[ids[i]].SeqNo < docs[ids[j]].SeqNo })
	var plan []catchUpBatch
	for len(ids) > size {
		plan = append(plan, catchUpBatch{ids: ids[:size:size]})
		ids = ids[size:]
	}
	return append(plan, catchUpBatch{ids: ids, mark: true})
}
