package merch

import (
	"context"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/catalog/wait"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/relevance"
)

// RefreshEvery is how long a replica trusts an index's rules pointer (one real-time get
// of a document) after it sent the read. A write answers only this long after it moved
// the pointer (awaitReplicas), so a search that starts after the answer, on any replica,
// uses a pointer read after the move: what was written.
const RefreshEvery = 250 * time.Millisecond

// cache keeps each index's rules compiled, per replica.
type cache struct {
	s       *Service
	mu      sync.Mutex
	entries map[string]*cacheEntry // by the index's stem
	// epochs move when this replica writes an index's rules: a load begun before the
	// write is not kept.
	epochs map[string]int64
	group  singleflight.Group
}

type cacheEntry struct {
	set     *Set
	ptr     pointer
	found   bool
	lang    searchv1alpha1.Language
	checked time.Time
}

func newCache(s *Service) *cache {
	return &cache{s: s, entries: map[string]*cacheEntry{}, epochs: map[string]int64{}}
}

// get returns the rules of t, read again when RefreshEvery has passed and the pointer
// moved since, or when the index's language changed.
func (c *cache) get(ctx context.Context, t Target) (*Set, error) {
	lang := relevance.Language(t.Settings)
	key := t.Names.Stem()
	c.mu.Lock()
	e, epoch := c.entries[key], c.epochs[key]
	c.mu.Unlock()
	start := time.Now()
	if e != nil && e.lang == lang && start.Sub(e.checked) < RefreshEvery {
		return e.set, nil
	}
	for {
		v, err, _ := c.group.Do(key+"#"+strconv.FormatInt(epoch, 10), func() (any, error) {
			fresh, err := c.refresh(ctx, t.Names, lang, e)
			if err != nil {
				return nil, err
			}
			c.mu.Lock()
			if c.epochs[key] == epoch {
				c.entries[key] = fresh
			}
			c.mu.Unlock()
			return fresh, nil
		})
		if err != nil {
			return nil, err
		}
		// A read already in flight may have been sent too long ago; the next is not.
		if fresh := v.(*cacheEntry); fresh.checked.After(start.Add(-RefreshEvery)) {
			return fresh.set, nil
		}
	}
}

// refresh reads the pointer, and the rules when it moved since old; the entry is as of
// when the pointer's read was sent.
func (c *cache) refresh(ctx context.Context, names esnames.Index, lang searchv1alpha1.Language, old *cacheEntry) (*cacheEntry, error) {
	now := time.Now()
	p, err := c.s.pointerOf(ctx, names)
	if err != nil {
		return nil, err
	}
	if old != nil && old.lang == lang && old.found == p.v.Found && old.ptr.Generation == p.doc.Generation && old.ptr.Revision == p.doc.Revision {
		return &cacheEntry{set: old.set, ptr: old.ptr, found: old.found, lang: lang, checked: now}, nil
	}
	if !p.v.Found {
		return &cacheEntry{set: compile(nil), lang: lang, checked: now}, nil
	}
	ptr, docs, err := c.s.load(ctx, names)
	if err != nil {
		return nil, err
	}
	if docs, err = c.s.inLanguage(ctx, lang, docs); err != nil {
		return nil, err
	}
	return &cacheEntry{set: compile(docs), ptr: ptr, found: true, lang: lang, checked: now}, nil
}

// awaitReplicas returns once every replica's cache entry of an index was read after a
// pointer move that ended before the call (see RefreshEvery), or when ctx ends.
func awaitReplicas(ctx context.Context) error {
	return wait.Sleep(ctx, RefreshEvery)
}

// forget drops an index's rules after this replica wrote them.
func (c *cache) forget(names esnames.Index) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, names.Stem())
	c.epochs[names.Stem()]++
}

// inLanguage reads again the terms of the rules written when the index had another
// language (it was rebuilt since).
func (s *Service) inLanguage(ctx context.Context, lang searchv1alpha1.Language, docs []ruleDoc) ([]ruleDoc, error) {
	var stale []int
	var rules []Rule
	for i, d := range docs {
		if d.Terms.Language != lang {
			stale = append(stale, i)
			rules = append(rules, d.Rule)
		}
	}
	if len(stale) == 0 {
		return docs, nil
	}
	read, err := s.readTerms(ctx, lang, rules)
	if err != nil {
		return nil, err
	}
	for j, i := range stale {
		docs[i].Terms = read[j]
	}
	return docs, nil
}
