package store

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
	"github.com/aislehq/aisle/internal/engine/sourcefile"
)

// AliasMeta is one alias-to-index link.
type AliasMeta struct {
	IsWriteIndex  *bool           `json:"is_write_index,omitempty"`
	IsHidden      *bool           `json:"is_hidden,omitempty"`
	Filter        json.RawMessage `json:"filter,omitempty"`
	IndexRouting  string          `json:"index_routing,omitempty"`
	SearchRouting string          `json:"search_routing,omitempty"`
}

type indexMeta struct {
	Name     string          `json:"name"`
	UUID     string          `json:"uuid"`
	Created  int64           `json:"created"`
	Settings map[string]any  `json:"settings"`
	Mapping  *mapper.Mapping `json:"mapping"`
}

type metaFile struct {
	Indices []indexMeta                      `json:"indices"`
	Aliases map[string]map[string]*AliasMeta `json:"aliases"`
}

// Store is the set of indices and aliases of one data directory.
type Store struct {
	dir string

	mu      sync.RWMutex
	indices map[string]*Index
	aliases map[string]map[string]*AliasMeta // alias -> index -> link

	cache  *sourcefile.Cache // decompressed source blocks of every index
	metaMu sync.Mutex
	stop   chan struct{}
	done   chan struct{}
}

// Open loads (or initialises) the store in dir and starts the periodic refresher.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(filepath.Join(dir, "indices"), 0o755); err != nil {
		return nil, err
	}
	st := &Store{dir: dir, indices: map[string]*Index{}, aliases: map[string]map[string]*AliasMeta{},
		cache: sourcefile.NewCache(sourceCacheBytes), stop: make(chan struct{}), done: make(chan struct{})}
	raw, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	if err == nil {
		var mf metaFile
		if err := json.Unmarshal(raw, &mf); err != nil {
			return nil, err
		}
		for i := range mf.Indices {
			m := mf.Indices[i]
			ix, err := openIndex(st, st.indexDir(m.UUID), &m)
			if err != nil {
				return nil, err
			}
			st.indices[m.Name] = ix
		}
		if mf.Aliases != nil {
			st.aliases = mf.Aliases
		}
	}
	go st.refreshLoop()
	return st, nil
}

func (st *Store) indexDir(uuid string) string { return filepath.Join(st.dir, "indices", uuid) }

// refreshLoop refreshes indices with pending writes every refresh_interval, like ES.
func (st *Store) refreshLoop() {
	defer close(st.done)
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-st.stop:
			return
		case now := <-t.C:
			for _, ix := range st.All() {
				if !ix.closed.Load() && ix.needsRefresh(now) {
					_ = ix.Refresh()
				}
			}
		}
	}
}

// Close persists everything and releases files.
func (st *Store) Close() error {
	close(st.stop)
	<-st.done
	var first error
	for _, ix := range st.All() {
		if err := ix.close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// saveMeta writes meta.json atomically (temp file, fsync, rename, fsync dir).
func (st *Store) saveMeta() error {
	st.metaMu.Lock()
	defer st.metaMu.Unlock()
	st.mu.RLock()
	mf := metaFile{Aliases: st.aliases}
	for _, ix := range st.indices {
		mf.Indices = append(mf.Indices, indexMeta{Name: ix.Name, UUID: ix.UUID, Created: ix.Created.UnixMilli(),
			Settings: ix.Settings().Flat, Mapping: ix.Mapping()})
	}
	raw, err := json.Marshal(mf)
	st.mu.RUnlock()
	if err != nil {
		return err
	}
	return writeFileAtomic(st.dir, "meta.json", func(w io.Writer) error {
		_, err := w.Write(raw)
		return err
	})
}

func newUUID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)[:22]
}

// All returns every index sorted by name.
func (st *Store) All() []*Index {
	st.mu.RLock()
	out := make([]*Index, 0, len(st.indices))
	for _, ix := range st.indices {
		out = append(out, ix)
	}
	st.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Index returns a concrete index by name.
func (st *Store) Index(name string) *Index {
	st.mu.RLock()
	defer st.mu.RUnlock()
	return st.indices[name]
}

// CreateRequest is the body of PUT /{index}.
type CreateRequest struct {
	Settings map[string]any
	Mapping  *mapper.Mapping
	Aliases  map[string]*AliasMeta
}

// Create makes a new index; it fails with resource_already_exists_exception if the name is
// taken by an index or an alias.
func (st *Store) Create(name string, req CreateRequest) (*Index, error) {
	if err := ValidateIndexName(name); err != nil {
		return nil, err
	}
	meta, err := newIndexMeta(name, req)
	if err != nil {
		return nil, err
	}
	st.mu.Lock()
	if err := st.checkNewNames(name, req.Aliases); err != nil {
		st.mu.Unlock()
		return nil, err
	}
	ix, err := openIndex(st, st.indexDir(meta.UUID), meta)
	if err != nil {
		st.mu.Unlock()
		return nil, err
	}
	st.indices[name] = ix
	for alias, am := range req.Aliases {
		if st.aliases[alias] == nil {
			st.aliases[alias] = map[string]*AliasMeta{}
		}
		if am == nil {
			am = &AliasMeta{}
		}
		st.aliases[alias][name] = am
	}
	st.mu.Unlock()
	return ix, st.saveMeta()
}

// newIndexMeta validates a new index's settings, analysis and mapping.
func newIndexMeta(name string, req CreateRequest) (*indexMeta, error) {
	flat := req.Settings
	if flat == nil {
		flat = map[string]any{}
	}
	if err := ValidateNew(flat); err != nil {
		return nil, err
	}
	m := req.Mapping
	if m == nil {
		m = &mapper.Mapping{}
	}
	a, err := mapper.ParseAnalysis((&Settings{Flat: flat}).AnalysisTree())
	if err != nil {
		return nil, err
	}
	if err := mapper.ValidateAnalysis(a); err != nil {
		return nil, err
	}
	if _, err := mapper.BuildIndexMapping(a); err != nil {
		return nil, eserr.As(err)
	}
	if err := validateAnalyzers(m, a); err != nil {
		return nil, err
	}
	return &indexMeta{Name: name, UUID: newUUID(), Created: time.Now().UnixMilli(), Settings: flat, Mapping: m}, nil
}

// checkNewNames refuses an index name or alias names that are taken; st.mu is held.
func (st *Store) checkNewNames(name string, aliases map[string]*AliasMeta) error {
	if ix := st.indices[name]; ix != nil {
		return eserr.New(400, "resource_already_exists_exception", "index [%s/%s] already exists", name, ix.UUID).
			With("index_uuid", ix.UUID).With("index", name)
	}
	if _, ok := st.aliases[name]; ok {
		return eserr.New(400, "invalid_index_name_exception", "Invalid index name [%s], an alias with the same name already exists", name).With("index_uuid", "_na_").With("index", name)
	}
	for alias := range aliases {
		if st.indices[alias] != nil || alias == name {
			return eserr.New(400, "invalid_alias_name_exception", "Invalid alias name [%s]: an index or data stream exists with the same name as the alias", alias)
		}
	}
	return nil
}

// Delete removes indices and their aliases.
func (st *Store) Delete(names []string) error {
	st.mu.Lock()
	var dropped []*Index
	for _, n := range names {
		ix := st.indices[n]
		if ix == nil {
			continue
		}
		delete(st.indices, n)
		for alias, links := range st.aliases {
			delete(links, n)
			if len(links) == 0 {
				delete(st.aliases, alias)
			}
		}
		dropped = append(dropped, ix)
	}
	st.mu.Unlock()
	if err := st.saveMeta(); err != nil {
		return err
	}
	for _, ix := range dropped {
		ix.drop()
		_ = os.RemoveAll(ix.dir)
	}
	return nil
}

// UpdateSettings applies a validated settings update.
func (st *Store) UpdateSettings(ix *Index, upd map[string]any) error {
	cur := ix.Settings().Flat
	if err := ValidateUpdate(cur, upd, ix.Name, ix.UUID); err != nil {
		return err
	}
	next := map[string]any{}
	for k, v := range cur {
		next[k] = v
	}
	for k, v := range upd {
		if v == nil {
			delete(next, k)
			continue
		}
		next[k] = v
	}
	ix.settings.Store(&Settings{Flat: next})
	return st.saveMeta()
}
