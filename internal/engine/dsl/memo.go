package dsl

import (
	"fmt"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/columns"
)

// Memo lets the predicates of one search share the checks of their identical leaves (a
// term, the terms of one field, a range) on each reader: the filter aggregations of a
// faceted search and its post_filter name the same selections, and each selection is
// then checked once per document, not once per predicate that names it. A reader is
// searched by one goroutine at a time, which is what the checks' memories assume.
type Memo struct {
	mu       sync.Mutex
	byReader map[index.IndexReader]map[string]*memoCheck
}

// NewMemo returns a memo for one search.
func NewMemo() *Memo { return &Memo{byReader: map[index.IndexReader]map[string]*memoCheck{}} }

// leaves is the memo's leaves bound to r (nil without a memo).
func (m *Memo) leaves(r index.IndexReader) map[string]*memoCheck {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	l := m.byReader[r]
	if l == nil {
		l = map[string]*memoCheck{}
		m.byReader[r] = l
	}
	return l
}

// memoCheck remembers a check's answer for the last document asked about.
type memoCheck struct {
	check Check
	seg   int
	local uint64
	asked bool
	res   bool
}

func (c *memoCheck) test(seg int, local uint64) bool {
	if !c.asked || c.seg != seg || c.local != local {
		c.seg, c.local, c.asked, c.res = seg, local, true, c.check(seg, local)
	}
	return c.res
}

// bindLeaf binds a leaf predicate, through leaves when given: a leaf bound before under
// the same key is shared (mc). ok is false when p is not a leaf.
func (p *Pred) bindLeaf(v *columns.View, m mapping.IndexMapping, leaves map[string]*memoCheck) (check Check, mc *memoCheck, ok bool, err error) {
	key, bind := p.leaf(v, m)
	if bind == nil {
		return nil, nil, false, nil
	}
	if leaves == nil || key == "" {
		check, err = bind()
		return check, nil, true, err
	}
	if mc = leaves[key]; mc == nil {
		if check, err = bind(); err != nil {
			return nil, nil, true, err
		}
		mc = &memoCheck{check: check}
		leaves[key] = mc
	}
	return mc.test, mc, true, nil
}

// allShared checks that every one of shared leaves matches, calling them directly: the
// filters of a faceted search are conjunctions of shared selections.
func allShared(shared []*memoCheck) Check {
	return func(seg int, local uint64) bool {
		for _, mc := range shared {
			if !mc.test(seg, local) {
				return false
			}
		}
		return true
	}
}

// leaf is p's key and binder when p is a leaf: a term, a range, an exists, or terms of
// one field.
func (p *Pred) leaf(v *columns.View, m mapping.IndexMapping) (string, func() (Check, error)) {
	switch p.kind {
	case predTerm:
		return "term\x00" + p.field + "\x00" + p.term, func() (Check, error) { return bindTerm(v, p.field, p.term) }
	case predExists:
		return "exists\x00" + p.field, func() (Check, error) { return bindExists(v, p.field) }
	case predRange:
		field, lo, hi, err := p.rng.bounds(m)
		key := fmt.Sprintf("range\x00%s\x00%d\x00%d", field, lo, hi)
		if err != nil {
			key = "" // never shared: binding reports the error
		}
		return key, func() (Check, error) {
			rc, err := resolve(v, p.rng, m)
			if err != nil {
				return nil, err
			}
			return rc.has, nil
		}
	}
	if field, terms := p.termSet(); field != "" {
		return "terms\x00" + field + "\x00" + strings.Join(terms, "\x00"), func() (Check, error) { return bindTermSet(v, field, terms) }
	}
	return "", nil
}
