package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"time"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
)

// Target is the SearchIndex a request works on, with what the write path needs of it.
type Target struct {
	Names    esnames.Index
	Settings searchv1alpha1.IndexSettings
	// MaxRecords is the workspace's plan limit across its indexes (0: none).
	MaxRecords int64
	// OtherAliases are the aliases of the workspace's other indexes, counted for the plan.
	OtherAliases []string
}

// ReadResult is GET /records/{objectID}.
type ReadResult struct {
	ObjectID string          `json:"objectID"`
	Version  int64           `json:"version"`
	Record   json.RawMessage `json:"record"`
}

// Upsert adds or replaces records (POST /records) as one write with one revision.
func (s *Service) Upsert(ctx context.Context, t Target, records []Record) (Receipt, error) {
	tk := s.ticket(ctx, t.Names)
	err := s.checkPlanUpsert(ctx, t, tk, records)
	if err == nil {
		err = s.checkLive(ctx, t.Names, records)
	}
	if err != nil {
		s.giveBack(t.Names, tk)
		return Receipt{}, err
	}
	return s.write(ctx, t.Names, tk, func(ctx context.Context, rev int64) (change, error) {
		added, err := s.upsertOrUndo(ctx, t.Names.Alias(), records, rev)
		return change{applied: true, added: added}, err
	})
}

// Delete removes one record (DELETE /records/{objectID}); an absent record is a no-op
// write that still gets its revision and receipt.
func (s *Service) Delete(ctx context.Context, t Target, objectID string) (Receipt, error) {
	return s.write(ctx, t.Names, s.ticket(ctx, t.Names), func(ctx context.Context, _ int64) (change, error) {
		added, err := s.bulkWrite(ctx, t.Names.Alias(), []BulkOp{{ID: objectID, Delete: true}})
		return change{applied: true, added: added}, err
	})
}

// write runs apply under a revision, the ticket's or a fresh one: begin, apply,
// complete, receipt. Its context ends before the lease does, so a write never lands
// after its revision was given up.
func (s *Service) write(ctx context.Context, names esnames.Index, tk ticket, apply func(context.Context, int64) (change, error)) (Receipt, error) {
	g, err := s.begin(ctx, names, tk)
	if err != nil {
		return Receipt{}, err
	}
	applyCtx, cancel := context.WithDeadline(ctx, time.UnixMilli(g.lease.Deadline).Add(-s.cfg.WriteLease/6))
	ch, err := apply(applyCtx, g.lease.Rev)
	cancel()
	if err != nil {
		// The revision is released; whether anything landed is unknown, so it does
		// not count as a write either way (no 202 was given).
		_ = s.finish(context.WithoutCancel(ctx), names, g.lease.Rev, false)
		return Receipt{}, err
	}
	if !ch.applied {
		if err := s.finish(ctx, names, g.lease.Rev, false); err != nil {
			return Receipt{}, err
		}
		return Receipt{}, ErrVersionConflict
	}
	return s.conclude(ctx, names, g, ch)
}

// conclude completes an applied write and returns its receipt. Its count is the known
// count plus what the write added when that is exact (counts.go); otherwise a _count
// runs beside the completion, the write being searchable already.
func (s *Service) conclude(ctx context.Context, names esnames.Index, g grant, ch change) (Receipt, error) {
	alias := names.Alias()
	n, _, exact := s.countBefore(alias, g.lease, g.reserved, g.alone)
	counted := make(chan error, 1)
	if exact {
		n += ch.added
		counted <- nil
	} else {
		go func() {
			var err error
			n, err = s.Count(ctx, alias)
			counted <- err
		}()
	}
	st, err := s.completeReserving(ctx, names, g.lease.Rev)
	if cerr := <-counted; err == nil {
		err = cerr
	}
	if err != nil {
		return Receipt{}, err
	}
	s.counts.set(alias, knownCount{n: n, rev: g.lease.Rev, exact: g.alone})
	return Receipt{AcceptedRevision: g.lease.Rev, IndexedRevision: st.Prune(s.cfg.Now()).Indexed(), RecordCount: n}, nil
}

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
	n, err := s.Count(ctx, t.Names.Alias())
	if err != nil {
		return Receipt{}, err
	}
	return Receipt{AcceptedRevision: st.Accepted(), IndexedRevision: st.Prune(s.cfg.Now()).Indexed(), RecordCount: n}, nil
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
	if version == 0 {
		// A replacement's record: its version is the replacement's revision.
		st, _, err := s.loadState(ctx, names)
		if err != nil {
			return storedDoc{}, err
		}
		version = max(st.Bases[res.Index_], 1)
	}
	return storedDoc{found: true, seq: *res.SeqNo_, term: *res.PrimaryTerm_, version: version, record: record}, nil
}

// pathID escapes a record id for a URL path: the typed client puts ids in paths as given.
func pathID(id string) string { return url.PathEscape(id) }

// count returns the number of records behind an alias (0 when it does not exist yet).
func (s *Service) Count(ctx context.Context, alias string) (int64, error) {
	res, err := s.es.Core.Count().Index(alias).Do(ctx)
	if err := es.Classify(err); err != nil {
		if errors.Is(err, es.ErrNotFound) {
			return 0, nil
		}
		return 0, fmt.Errorf("counting %s: %w", alias, err)
	}
	return res.Count, nil
}
