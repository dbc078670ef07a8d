package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/conflicts"

	"github.com/aislehq/aisle/internal/es"
)

// DeleteMatching deletes the records the Elasticsearch filter clauses match, every
// record when there are none (POST /records/delete), as one write with one revision:
// a _delete_by_query through the alias under the revision's lease, refreshed before the
// receipt. A record another write changes while it runs is left to that write
// (conflicts=proceed): the two were concurrent.
func (s *Service) DeleteMatching(ctx context.Context, t Target, filters []any) (Receipt, error) {
	body, err := json.Marshal(map[string]any{"query": map[string]any{"bool": map[string]any{"filter": filters}}})
	if err != nil {
		return Receipt{}, fmt.Errorf("encoding a delete by filter: %w", err)
	}
	return s.write(ctx, t.Names, s.ticket(ctx, t.Names), func(ctx context.Context, _ run) (change, error) {
		alias := t.Names.Alias()
		res, err := s.es.DeleteByQuery(alias).Raw(bytes.NewReader(body)).Conflicts(conflicts.Proceed).Refresh(true).Do(ctx)
		if err != nil {
			return change{}, fmt.Errorf("deleting the records of %s a filter matches: %w", alias, es.Classify(err))
		}
		if len(res.Failures) > 0 {
			return change{}, fmt.Errorf("%w: deleting the records of %s a filter matches: %d failures", es.ErrUnavailable, alias, len(res.Failures))
		}
		var deleted int64
		if res.Deleted != nil {
			deleted = *res.Deleted
		}
		return change{applied: true, added: -deleted}, nil
	})
}
