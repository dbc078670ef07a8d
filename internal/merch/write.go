package merch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/conflicts"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/result"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/relevance"
)

// maxSettle bounds the compare-and-set attempts of one write against other writers.
const maxSettle = 20

// staleAfter: a generation no pointer names that is older than this was left by a
// replacement that stopped half-way; the next replacement deletes it.
const staleAfter = time.Hour

// Put adds rules or replaces those with the same objectIDs: one (PUT /rules/{ruleId})
// or a batch (POST /rules, batch true: problems are placed at rules[i]). Nothing is
// written when a rule is refused or the index would hold more than MaxRules.
func (s *Service) Put(ctx context.Context, t Target, rules []Rule, batch bool) error {
	docs, err := s.prepare(ctx, t, rules, batch)
	if err != nil {
		return err
	}
	if err := s.ensure(ctx, t); err != nil {
		return err
	}
	p, err := s.current(ctx, t)
	if err != nil {
		return err
	}
	if err := s.checkRoom(ctx, t, p.doc.Generation, docs); err != nil {
		return err
	}
	before, err := s.stateBefore(ctx, t)
	if err != nil {
		return err
	}
	if err := s.writeDocs(ctx, t, p.doc.Generation, docs); err != nil {
		return err
	}
	if err := s.settle(ctx, t, p, idsOf(docs)); err != nil {
		return err
	}
	_, err = s.record(ctx, t, putSummary(rules), nil, before)
	return err
}

// Delete deletes rule id; ErrNotFound when there is none.
func (s *Service) Delete(ctx context.Context, t Target, id string) error {
	p, err := s.pointerOf(ctx, t.Names)
	if err != nil {
		return err
	}
	if !p.v.Found {
		return ErrNotFound
	}
	before, err := s.stateBefore(ctx, t)
	if err != nil {
		return err
	}
	res, err := s.es.Delete(t.Names.Rules(), docID(p.doc.Generation, id)).Refresh(refresh.Waitfor).Do(ctx)
	if err := es.Classify(err); errors.Is(err, es.ErrNotFound) {
		return ErrNotFound
	} else if err != nil {
		return fmt.Errorf("deleting rule %s: %w", id, err)
	}
	if res.Result != result.Deleted {
		return ErrNotFound
	}
	if err := s.settle(ctx, t, p, []string{id}); err != nil {
		return err
	}
	_, err = s.record(ctx, t, "deleted rule "+id, nil, before)
	return err
}

// Replace replaces every rule of the index with rules (PUT /rules), in one step for
// readers: a new generation is written, then the pointer switched to it.
func (s *Service) Replace(ctx context.Context, t Target, rules []Rule) error {
	_, err := s.replace(ctx, t, rules, "replaced every rule with "+countRules(len(rules)))
	return err
}

// replace is Replace, kept in the history with summary: the version's number.
func (s *Service) replace(ctx context.Context, t Target, rules []Rule, summary string) (int64, error) {
	docs, err := s.prepare(ctx, t, rules, true)
	if err != nil {
		return 0, err
	}
	if err := s.ensure(ctx, t); err != nil {
		return 0, err
	}
	before, err := s.stateBefore(ctx, t)
	if err != nil {
		return 0, err
	}
	gen := newGeneration()
	if err := s.writeDocs(ctx, t, gen, docs); err != nil {
		return 0, err
	}
	if err := s.switchTo(ctx, t, gen); err != nil {
		return 0, err
	}
	return s.record(ctx, t, summary, byObjectID(rules), before)
}

// switchTo points the index's rules to generation gen, and deletes the one it replaced.
func (s *Service) switchTo(ctx context.Context, t Target, gen string) error {
	for attempt := 0; attempt < maxSettle; attempt++ {
		p, err := s.pointerOf(ctx, t.Names)
		if err != nil {
			return err
		}
		err = s.putPointer(ctx, t.Names, p, pointer{Generation: gen, Revision: p.doc.Revision + 1})
		if errors.Is(err, es.ErrConflict) {
			continue
		}
		if err != nil {
			return err
		}
		s.cache.forget(t.Names)
		if err := awaitReplicas(ctx); err != nil {
			return err
		}
		return s.dropGenerations(ctx, t, p.doc.Generation, gen)
	}
	return fmt.Errorf("%w: the rules of %s kept changing", es.ErrUnavailable, t.Names.Stem())
}

// prepare checks rules for t and reads their patterns: the documents to write.
func (s *Service) prepare(ctx context.Context, t Target, rules []Rule, batch bool) ([]ruleDoc, error) {
	schema, err := s.schemas.Schema(ctx, t.Names.Alias())
	if err != nil {
		return nil, err
	}
	if err := Check(rules, batch, t.Settings, schema); err != nil {
		return nil, err
	}
	lang := relevance.Language(t.Settings)
	read, err := s.readTerms(ctx, lang, rules)
	if err != nil {
		return nil, err
	}
	var p problems
	docs := make([]ruleDoc, len(rules))
	for i, r := range rules {
		at := ""
		if batch {
			at = fmt.Sprintf("rules[%d].", i)
		}
		checkTerms(r, read[i], at, &p)
		docs[i] = ruleDoc{RuleID: r.ObjectID, Text: findText(r), Rule: r, Terms: read[i]}
	}
	return docs, p.err()
}

// findText is what GET /rules?query= searches: the ID, description, patterns and contexts.
func findText(r Rule) string {
	parts := []string{r.ObjectID, r.Description}
	for _, c := range r.Conditions {
		if c.Pattern != nil {
			parts = append(parts, *c.Pattern)
		}
		if c.Context != "" {
			parts = append(parts, c.Context)
		}
	}
	return strings.Join(parts, " \n ")
}

func idsOf(docs []ruleDoc) []string {
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = d.RuleID
	}
	return out
}

// current reads the pointer, creating a first (empty) generation when there is none.
func (s *Service) current(ctx context.Context, t Target) (readPointer, error) {
	for attempt := 0; attempt < maxSettle; attempt++ {
		p, err := s.pointerOf(ctx, t.Names)
		if err != nil || p.v.Found {
			return p, err
		}
		err = s.putPointer(ctx, t.Names, p, pointer{Generation: newGeneration()})
		if err != nil && !errors.Is(err, es.ErrConflict) {
			return readPointer{}, err
		}
	}
	return readPointer{}, fmt.Errorf("%w: the rules of %s kept changing", es.ErrUnavailable, t.Names.Stem())
}

// settle moves the pointer's revision after a write to p's generation, so that caches
// read the rules again. When a replacement switched generations meanwhile, the write
// was concurrent with it and takes its place before it: its documents in the old
// generation are removed (the replacement may have cleared that generation already).
func (s *Service) settle(ctx context.Context, t Target, p readPointer, ids []string) error {
	defer s.cache.forget(t.Names)
	gen := p.doc.Generation
	for attempt := 0; attempt < maxSettle; attempt++ {
		next := p.doc
		next.Revision++
		err := s.putPointer(ctx, t.Names, p, next)
		if err == nil {
			return awaitReplicas(ctx)
		}
		if !errors.Is(err, es.ErrConflict) {
			return err
		}
		if p, err = s.pointerOf(ctx, t.Names); err != nil {
			return err
		}
		if p.doc.Generation != gen {
			return s.deleteDocs(ctx, t, gen, ids)
		}
	}
	return fmt.Errorf("%w: the rules of %s kept changing", es.ErrUnavailable, t.Names.Stem())
}

// checkRoom refuses docs when the generation would hold more than MaxRules.
func (s *Service) checkRoom(ctx context.Context, t Target, gen string, docs []ruleDoc) error {
	held, err := s.count(ctx, t, gen)
	if err != nil {
		return err
	}
	existing, err := s.existing(ctx, t, gen, idsOf(docs))
	if err != nil {
		return err
	}
	if added := int64(len(docs) - existing); held+added > MaxRules {
		return fmt.Errorf("%w: an index holds at most %d rules; it holds %d and the request adds %d", ErrTooMany, MaxRules, held, added)
	}
	return nil
}

func (s *Service) count(ctx context.Context, t Target, gen string) (int64, error) {
	body, err := json.Marshal(map[string]any{"query": generationQuery(gen)})
	if err != nil {
		return 0, err
	}
	raw, err := es.ReadBody(s.es.Count().Index(t.Names.Rules()).Raw(bytes.NewReader(body)).Perform(ctx)) //nolint:bodyclose // ReadBody closes it
	if err != nil {
		return 0, fmt.Errorf("counting rules of %s: %w", t.Names.Stem(), err)
	}
	var ans struct {
		Count int64 `json:"count"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		return 0, fmt.Errorf("%w: decoding a _count answer: %w", es.ErrUnavailable, err)
	}
	return ans.Count, nil
}

// existing counts the rules of ids that generation gen holds.
func (s *Service) existing(ctx context.Context, t Target, gen string, ids []string) (int, error) {
	docIDs := make([]string, len(ids))
	for i, id := range ids {
		docIDs[i] = docID(gen, id)
	}
	body, err := json.Marshal(map[string]any{"ids": docIDs})
	if err != nil {
		return 0, err
	}
	raw, err := es.ReadBody(s.es.Mget().Index(t.Names.Rules()).Source_("false").Realtime(true).Raw(bytes.NewReader(body)).Perform(ctx)) //nolint:bodyclose // ReadBody closes it
	if err != nil {
		return 0, fmt.Errorf("reading rules of %s: %w", t.Names.Stem(), err)
	}
	var ans struct {
		Docs []struct {
			Found bool `json:"found"`
		} `json:"docs"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		return 0, fmt.Errorf("%w: decoding an _mget answer: %w", es.ErrUnavailable, err)
	}
	n := 0
	for _, d := range ans.Docs {
		if d.Found {
			n++
		}
	}
	return n, nil
}

// dropGenerations deletes the generation a replacement replaced, and those left by
// replacements that stopped half-way, never the current one.
func (s *Service) dropGenerations(ctx context.Context, t Target, old, current string) error {
	q := map[string]any{"bool": map[string]any{
		"must_not": []any{generationQuery(current)},
		"should": []any{generationQuery(old),
			map[string]any{"range": map[string]any{"writtenAt": map[string]any{"lt": s.clock().Add(-staleAfter).UnixMilli()}}}},
		"minimum_should_match": 1,
	}}
	body, err := json.Marshal(map[string]any{"query": q})
	if err != nil {
		return err
	}
	_, err = es.ReadBody(s.es.DeleteByQuery(t.Names.Rules()).Conflicts(conflicts.Proceed).Refresh(true).Raw(bytes.NewReader(body)).Perform(ctx)) //nolint:bodyclose // ReadBody closes it
	if err != nil {
		return fmt.Errorf("deleting replaced rules of %s: %w", t.Names.Stem(), err)
	}
	return nil
}
