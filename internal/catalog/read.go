package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
)

// ReadResult is GET /records/{objectID}.
type ReadResult struct {
	ObjectID string          `json:"objectID"`
	Version  int64           `json:"version"`
	Record   json.RawMessage `json:"record"`
}

// ReceiptAt is the receipt of revision rev once the revision document is st.
func (s *Service) ReceiptAt(ctx context.Context, names esnames.Index, rev int64, st State) (Receipt, error) {
	n, err := s.Count(ctx, names.Alias())
	if err != nil {
		return Receipt{}, err
	}
	return Receipt{AcceptedRevision: rev, IndexedRevision: st.Prune(s.cfg.Now()).Indexed(), RecordCount: n}, nil
}

// Indexing answers GET /indexing.
func (s *Service) Indexing(ctx context.Context, t Target) (Receipt, error) {
	st, _, err := s.loadState(ctx, t.Names)
	if err != nil {
		return Receipt{}, err
	}
	st = st.Prune(s.cfg.Now())
	// Writes landing are searchable once their records are (state_land.go); this
	// replica's own landed ones are known to be.
	done := s.landedDone(t.Names)
	if err := s.searchableLandings(ctx, t.Names, st, done); err != nil {
		return Receipt{}, err
	}
	n, err := s.Count(ctx, t.Names.Alias())
	if err != nil {
		return Receipt{}, err
	}
	return Receipt{AcceptedRevision: st.Accepted(), IndexedRevision: st.IndexedBesides(done), RecordCount: n}, nil
}

// Get reads one record in real time (GET /records/{objectID}).
func (s *Service) Get(ctx context.Context, t Target, objectID string) (ReadResult, error) {
	doc, err := s.getDoc(ctx, t.Names, objectID)
	if err != nil {
		return ReadResult{}, err
	}
	res := ReadResult{ObjectID: objectID, Record: json.RawMessage("null")}
	if doc.found {
		res.Version, res.Record = doc.version, doc.record
	}
	return res, nil
}

// storedDoc is a record document with what a conditional write compares and sets.
type storedDoc struct {
	found     bool
	seq, term int64
	version   int64
	record    json.RawMessage
}

func (s *Service) getDoc(ctx context.Context, names esnames.Index, id string) (storedDoc, error) {
	res, err := s.es.Get(names.Alias(), pathID(id)).Realtime(true).Do(ctx)
	if err != nil {
		return storedDoc{}, fmt.Errorf("reading record %q: %w", id, es.Classify(err))
	}
	if !res.Found || res.SeqNo_ == nil || res.PrimaryTerm_ == nil {
		return storedDoc{}, nil
	}
	record, version, err := splitVersion(res.Source_)
	if err != nil {
		return storedDoc{}, err
	}
	if version, err = s.versionIn(ctx, names, res.Index_, version); err != nil {
		return storedDoc{}, err
	}
	return storedDoc{found: true, seq: *res.SeqNo_, term: *res.PrimaryTerm_, version: version, record: record}, nil
}

// versionIn is the version of a record of the physical index that carried version: a
// replacement's record carries none (0), its version is the replacement's revision.
func (s *Service) versionIn(ctx context.Context, names esnames.Index, physical string, version int64) (int64, error) {
	if version != 0 {
		return version, nil
	}
	st, _, err := s.loadState(ctx, names)
	if err != nil {
		return 0, err
	}
	return max(st.Bases[physical], 1), nil
}

// pathID escapes a record id for a URL path: the typed client puts ids in paths as given.
func pathID(id string) string { return url.PathEscape(id) }
