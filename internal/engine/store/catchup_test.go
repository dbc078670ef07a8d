package store

import (
	"fmt"
	"testing"
)

// TestCatchUpPlan: every document newer than bleve's seq_no is indexed again exactly once,
// in seq_no order, and only the last batch records the seq_no, so that a crash during a
// catch-up can never leave a mark ahead of what bleve holds.
func TestCatchUpPlan(t *testing.T) {
	docs := map[string]docState{}
	for seq := int64(0); seq < 3000; seq++ {
		docs[fmt.Sprintf("d%d", seq)] = docState{SeqNo: seq, Deleted: seq%7 == 0}
	}
	for _, c := range []struct {
		bseq  int64
		sizes []int
	}{
		{bseq: 2999, sizes: []int{0}},
		{bseq: 2998, sizes: []int{1}},
		{bseq: 1999, sizes: []int{1000}},
		{bseq: 999, sizes: []int{1000, 1000}},
		{bseq: 499, sizes: []int{1000, 1000, 500}},
		{bseq: -1, sizes: []int{1000, 1000, 1000}},
	} {
		plan := catchUpPlan(docs, c.bseq, 1000)
		if len(plan) != len(c.sizes) {
			t.Fatalf("bseq %d: %d batches, want %d", c.bseq, len(plan), len(c.sizes))
		}
		next := c.bseq + 1
		for i, b := range plan {
			if len(b.ids) != c.sizes[i] || b.mark != (i == len(plan)-1) {
				t.Errorf("bseq %d, batch %d: %d ids, mark %v; want %d ids, mark %v", c.bseq, i, len(b.ids), b.mark, c.sizes[i], i == len(plan)-1)
			}
			for _, id := range b.ids {
				if got := docs[id].SeqNo; got != next {
					t.Fatalf("bseq %d, batch %d: %s has seq_no %d, want %d", c.bseq, i, id, got, next)
				}
				next++
			}
		}
		if next != 3000 {
			t.Errorf("bseq %d: plan ends before seq_no %d, want 3000", c.bseq, next)
		}
	}
}
