package merch

import (
	"context"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/relevance"
)

// RefreshEvery is how often a replica reads an index's rules pointer (one real-time get
// of a document) to learn of writes through other replicas: a rule written through one
// replica applies on the others within about this long, at once on its own.
const RefreshEvery = time.Second

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
	if e != nil && e.lang == lang && time.Since(e.checked) < RefreshEvery {
		return e.set, nil
	}
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
		return fresh.set, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*Set), nil
}

// refresh reads the pointer, and the rules when it moved since old.
func (c *cache) refresh(ctx context.Context, names esnames.Index, lang searchv1alpha1.Language, old *cacheEntry) (*cacheEntry, error) {
	p, err := c.s.pointerOf(ctx, names)
	if err != nil {
		return nil, err
	}
	now := time.Now()
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
