package highlight

import (
	"container/heap"
	"math"
	"sort"
)

// The passages of a field, as Lucene's unified highlighter (FieldHighlighter) picks them:
// the field's values are one content, separated by one character; each match opens a
// passage around it unless it falls in the current one; the best passages by a BM25-like
// score are kept and shown in text order.

// match is a marked part of the content, in code points from the content's start.
type match struct {
	start, end int
	key        string
}

type passage struct {
	start, end int
	matches    []match
	score      float64
}

// text is a field's content: its values as code points, each starting at base[i].
type text struct {
	values [][]rune
	base   []int
	length int
}

func newText(values []string) *text {
	t := &text{values: make([][]rune, len(values)), base: make([]int, len(values))}
	for i, v := range values {
		t.values[i] = []rune(v)
		t.base[i] = t.length
		t.length += len(t.values[i]) + 1
	}
	t.length = max(t.length-1, 0)
	return t
}

// valueAt returns the value holding content offset off.
func (t *text) valueAt(off int) int {
	return sort.Search(len(t.base), func(i int) bool { return t.base[i] > off }) - 1
}

// boundaries finds where a passage around a match starts and ends, in one value.
type boundaries interface {
	// around returns the passage bounds for a match starting at off, in value offsets.
	around(off int) (start, end int)
}

// passages picks up to n passages (all when n is 0) for sorted matches.
func (t *text) passages(matches []match, n int, bounds func(v int) boundaries) []*passage {
	freq := map[string]int{}
	for _, m := range matches {
		freq[m.key]++
	}
	q := &passageQueue{}
	var cur *passage
	curValue := -1
	var b boundaries
	finish := func() {
		if cur == nil {
			return
		}
		cur.score = score(cur, t.length, freq)
		if n > 0 && q.Len() == n && q.less(cur, (*q)[0]) {
			return
		}
		heap.Push(q, cur)
		if n > 0 && q.Len() > n {
			heap.Pop(q)
		}
	}
	for _, m := range matches {
		if cur != nil && m.start < cur.end {
			cur.matches = append(cur.matches, m)
			continue
		}
		finish()
		v := t.valueAt(m.start)
		if v != curValue {
			curValue, b = v, bounds(v)
		}
		s, e := b.around(m.start - t.base[v])
		cur = &passage{start: t.base[v] + s, end: t.base[v] + e, matches: []match{m}}
	}
	finish()
	out := []*passage(*q)
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

// score is Lucene's PassageScorer: BM25 over the passage's terms with k1 1.2, b 0.75 and a
// pivot of 87 characters, documents approximated from the content's length, and earlier
// passages favoured.
func score(p *passage, contentLength int, docFreq map[string]int) float64 {
	const k1, b, pivot = 1.2, 0.75, 87.0
	inPassage := map[string]int{}
	for _, m := range p.matches {
		inPassage[m.key]++
	}
	numDocs := 1 + float64(contentLength)/pivot
	norm := k1 * ((1 - b) + b*(float64(p.end-p.start)/pivot))
	s := 0.0
	for key, f := range inPassage {
		weight := (k1 + 1) * math.Log(1+(numDocs+0.5)/(float64(docFreq[key])+0.5))
		s += float64(f) / (float64(f) + norm) * weight
	}
	return s * (1 + 1/math.Log(pivot+float64(p.start)))
}

// passageQueue keeps the best passages, the worst on top: lower score, then (as Lucene's
// queue orders ties) the earlier passage.
type passageQueue []*passage

func (q passageQueue) less(a, b *passage) bool {
	if a.score != b.score {
		return a.score < b.score
	}
	return a.start < b.start
}

func (q passageQueue) Len() int           { return len(q) }
func (q passageQueue) Less(i, j int) bool { return q.less(q[i], q[j]) }
func (q passageQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *passageQueue) Push(x any)        { *q = append(*q, x.(*passage)) }

func (q *passageQueue) Pop() any {
	old := *q
	p := old[len(old)-1]
	*q = old[:len(old)-1]
	return p
}
