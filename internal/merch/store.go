package merch

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/controlindex"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/history"
	"github.com/aislehq/aisle/internal/searchquery"
)

// How rules are stored. The rules index of a SearchIndex holds one document per rule
// and generation, ID "<generation>.<ruleId>". The current generation is named by the
// pointer document "rules" of the index's control index, changed only by
// compare-and-set: PUT /rules writes a whole new generation, switches the pointer to it
// in one step and then deletes the old one, so a reader (which reads the pointer, then
// that generation) sees the old set or the new one, never a mix. The other writes change
// the current generation's documents and then move the pointer's revision, which tells
// every replica's cache to read the rules again. The rules index is created by the first
// write, as the order index is, and deleted with the SearchIndex (its name is under the
// index's stem); catalog replacements and rebuilds never touch it.

// rulesMapping indexes what reads look documents up by; the rest stays in _source.
const rulesMapping = `{"mappings":{"dynamic":false,"properties":{
"generation":{"type":"keyword"},"ruleId":{"type":"keyword"},
"text":{"type":"text"},"writtenAt":{"type":"long"}}}}`

// pointerID is the control document naming the current generation.
const pointerID = "rules"

// Target is the SearchIndex whose rules are read or written.
type Target struct {
	Names esnames.Index
	// UID tells an index from an earlier one of the same name (deleted since).
	UID      string
	Settings searchv1alpha1.IndexSettings
	// By is who writes (an API key's name), kept with the version in the history.
	By string
}

// Schemas reads the mapping of an index's records, which rules' filters are checked
// against (internal/search).
type Schemas interface {
	Schema(ctx context.Context, alias string) (searchquery.Schema, error)
}

// ruleDoc is a document of the rules index: the rule as sent, and the terms of its
// patterns and removed words as the index's language read them.
type ruleDoc struct {
	Generation string `json:"generation"`
	RuleID     string `json:"ruleId"`
	// Text is what GET /rules?query= finds a rule by: its ID, description and patterns.
	Text      string `json:"text"`
	WrittenAt int64  `json:"writtenAt"`
	Rule      Rule   `json:"rule"`
	Terms     terms  `json:"terms"`
}

// terms are a rule's patterns and removed words read by the analysis of Language.
type terms struct {
	Language searchv1alpha1.Language `json:"language"`
	// Patterns has one entry per condition, nil for a condition without a pattern.
	Patterns [][]string `json:"patterns,omitempty"`
	Remove   [][]string `json:"remove,omitempty"`
}

// pointer is the control document naming the current generation.
type pointer struct {
	Kind       string `json:"kind"`
	Generation string `json:"generation"`
	// Revision moves with every write, so that caches know to read the rules again.
	Revision  int64 `json:"revision"`
	UpdatedAt int64 `json:"updatedAt"`
}

// readPointer is a pointer and what a compare-and-set on it needs.
type readPointer struct {
	doc pointer
	v   controlindex.Versioned
}

// Service writes, reads and matches the rules of SearchIndexes.
type Service struct {
	es       *elasticsearch.TypedClient
	docs     *controlindex.Store
	schemas  Schemas
	clock    func() time.Time
	analyzer *analyzer
	cache    *cache
	history  *history.Log
	ensured  sync.Map // UID + rules index name -> struct{}
}

// New returns the service on client; schemas reads records' mappings, clock tells the
// time (validity windows).
func New(client *elasticsearch.TypedClient, schemas Schemas, clock func() time.Time) *Service {
	if clock == nil {
		clock = time.Now
	}
	s := &Service{es: client, docs: controlindex.NewStore(client), schemas: schemas, clock: clock, analyzer: newAnalyzer(client),
		history: history.New(client, history.KindRules, clock)}
	s.cache = newCache(s)
	return s
}

// ensure creates the rules and control indices of t once per process and index.
func (s *Service) ensure(ctx context.Context, t Target) error {
	key := t.UID + "\x00" + t.Names.Rules()
	if _, ok := s.ensured.Load(key); ok {
		return nil
	}
	_, err := s.es.Indices.Create(t.Names.Rules()).Raw(strings.NewReader(rulesMapping)).Do(ctx)
	if err := es.Classify(err); err != nil && !errors.Is(err, es.ErrConflict) {
		return fmt.Errorf("creating rules index %s: %w", t.Names.Rules(), err)
	}
	if err := controlindex.Create(ctx, s.es, t.Names.Control()); err != nil {
		return err
	}
	s.ensured.Store(key, struct{}{})
	return nil
}

// pointerOf reads the pointer without creating anything: found false when there is
// none (no rule was ever written, or the control index does not exist yet).
func (s *Service) pointerOf(ctx context.Context, names esnames.Index) (readPointer, error) {
	res, err := s.es.Get(names.Control(), pointerID).Realtime(true).Do(ctx)
	if err := es.Classify(err); errors.Is(err, es.ErrNotFound) {
		return readPointer{}, nil
	} else if err != nil {
		return readPointer{}, fmt.Errorf("reading the rules pointer of %s: %w", names.Stem(), err)
	}
	if !res.Found || res.SeqNo_ == nil || res.PrimaryTerm_ == nil {
		return readPointer{}, nil
	}
	var p readPointer
	if err := json.Unmarshal(res.Source_, &p.doc); err != nil {
		return readPointer{}, fmt.Errorf("decoding the rules pointer of %s: %w", names.Stem(), err)
	}
	p.v = controlindex.Versioned{Found: true, Seq: *res.SeqNo_, Term: *res.PrimaryTerm_, Src: res.Source_}
	return p, nil
}

// putPointer writes doc over prev (created when prev was not found); es.ErrConflict
// when another writer changed it first.
func (s *Service) putPointer(ctx context.Context, names esnames.Index, prev readPointer, doc pointer) error {
	doc.Kind, doc.UpdatedAt = pointerID, s.clock().UnixMilli()
	_, err := s.docs.Put(ctx, names.Control(), pointerID, prev.v, doc)
	return err
}

// newGeneration names a generation no writer can name again.
func newGeneration() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func docID(gen, ruleID string) string { return gen + "." + ruleID }

// writeDocs indexes docs into generation gen, searchable when it returns.
func (s *Service) writeDocs(ctx context.Context, t Target, gen string, docs []ruleDoc) error {
	now := s.clock().UnixMilli()
	for start := 0; start < len(docs); start += MaxBatch {
		chunk := docs[start:min(start+MaxBatch, len(docs))]
		var body bytes.Buffer
		for _, d := range chunk {
			d.Generation, d.WrittenAt = gen, now
			if err := bulkLine(&body, "index", docID(gen, d.RuleID), &d); err != nil {
				return err
			}
		}
		if err := s.bulk(ctx, t, len(chunk), &body); err != nil {
			return err
		}
	}
	return nil
}

// deleteDocs deletes the documents of ids in generation gen (absent ones are fine).
func (s *Service) deleteDocs(ctx context.Context, t Target, gen string, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	var body bytes.Buffer
	for _, id := range ids {
		if err := bulkLine(&body, "delete", docID(gen, id), nil); err != nil {
			return err
		}
	}
	return s.bulk(ctx, t, len(ids), &body)
}

func bulkLine(buf *bytes.Buffer, action, id string, doc *ruleDoc) error {
	meta, err := json.Marshal(map[string]any{action: map[string]any{"_id": id}})
	if err != nil {
		return err
	}
	buf.Write(meta)
	buf.WriteByte('\n')
	if doc != nil {
		src, err := json.Marshal(doc)
		if err != nil {
			return err
		}
		buf.Write(src)
		buf.WriteByte('\n')
	}
	return nil
}

// bulk sends one _bulk of n actions to the rules index, waiting until it is searchable;
// a failed item fails the whole (a delete of an absent document is no failure).
func (s *Service) bulk(ctx context.Context, t Target, n int, body *bytes.Buffer) error {
	res, err := s.es.Bulk().Index(t.Names.Rules()).Refresh(refresh.Waitfor).Raw(body).Perform(ctx) //nolint:bodyclose // BulkItems closes it
	items, err := es.BulkItems(n, res, err)
	if err != nil {
		return fmt.Errorf("writing rules of %s: %w", t.Names.Stem(), err)
	}
	for _, it := range items {
		if it.Error != nil && it.Status != 404 {
			return fmt.Errorf("%w: writing rule document %s: %s: %s", es.ErrUnavailable, it.ID, it.Error.Type, it.Error.Reason)
		}
	}
	return nil
}

// generationQuery selects the documents of generation gen.
func generationQuery(gen string) map[string]any {
	return map[string]any{"term": map[string]any{"generation": gen}}
}
