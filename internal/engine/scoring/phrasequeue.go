package scoring

// phrasePos is Lucene's PhrasePositions: one position of a phrase (its offset in the
// query) walking the document's positions of its terms. position is the document's
// position less the offset, so an exact phrase is where all of them are equal.
type phrasePos struct {
	positions []int // of the current document, ascending
	upTo      int
	position  int
	offset    int
	ord       int
	terms     []string
	// rptGroup is the group of phrase positions repeating a term (-1 for none), rptInd
	// this one's index in it.
	rptGroup, rptInd int
}

func (p *phrasePos) firstPosition() {
	p.upTo = 0
	p.nextPosition()
}

func (p *phrasePos) nextPosition() bool {
	if p.upTo == len(p.positions) {
		return false
	}
	p.position = p.positions[p.upTo] - p.offset
	p.upTo++
	return true
}

// tpPos is the position in the document.
func (p *phrasePos) tpPos() int { return p.position + p.offset }

// phraseLess is PhraseQueue.lessThan: by position, then offset, then ord.
func phraseLess(a, b *phrasePos) bool {
	if a.position != b.position {
		return a.position < b.position
	}
	if a.offset != b.offset {
		return a.offset < b.offset
	}
	return a.ord < b.ord
}

// phraseQueue is Lucene's PriorityQueue of PhrasePositions, heap operations and all:
// the sloppy matcher moves phrase positions that are in the queue before it re-queues
// them, and then the order in which they come out is the heap's, so it must be Lucene's
// own heap to match as Lucene does.
type phraseQueue struct {
	heap []*phrasePos // 1-based, heap[0] unused
	size int
}

func newPhraseQueue(n int) phraseQueue { return phraseQueue{heap: make([]*phrasePos, n+1)} }

func (q *phraseQueue) clear() {
	clear(q.heap)
	q.size = 0
}

func (q *phraseQueue) top() *phrasePos { return q.heap[1] }

func (q *phraseQueue) add(p *phrasePos) {
	q.size++
	q.heap[q.size] = p
	q.upHeap(q.size)
}

func (q *phraseQueue) pop() *phrasePos {
	if q.size == 0 {
		return nil
	}
	out := q.heap[1]
	q.heap[1] = q.heap[q.size]
	q.heap[q.size] = nil
	q.size--
	q.downHeap(1)
	return out
}

func (q *phraseQueue) upHeap(i int) {
	node := q.heap[i]
	for j := i >> 1; j > 0 && phraseLess(node, q.heap[j]); j = i >> 1 {
		q.heap[i] = q.heap[j]
		i = j
	}
	q.heap[i] = node
}

func (q *phraseQueue) downHeap(i int) {
	node := q.heap[i]
	j := q.smallerChild(i)
	for j <= q.size && phraseLess(q.heap[j], node) {
		q.heap[i] = q.heap[j]
		i = j
		j = q.smallerChild(i)
	}
	q.heap[i] = node
}

// smallerChild is i's left child, or its right one when that is less.
func (q *phraseQueue) smallerChild(i int) int {
	j := i << 1
	if k := j + 1; k <= q.size && phraseLess(q.heap[k], q.heap[j]) {
		return k
	}
	return j
}
