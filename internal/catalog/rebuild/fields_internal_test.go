package rebuild

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/catalog/catalogtest"
	"github.com/aislehq/aisle/internal/esnames"
)

// A field first written while a rebuild runs is copied with the type the live index
// gave it, whatever order the copy meets its values in (issue 15, item 7): "z" is text
// in the live index (its first value was "abc"), and the copy, in objectID order, meets
// the record holding 5 first. Mapped by the copy, z would be a long and "abc" refused.
func TestRebuildCopiesAFieldWrittenDuringItWithItsLiveType(t *testing.T) {
	client := catalogtest.Client(t)
	ctx := context.Background()
	tg := catalog.Target{Names: esnames.For("fields", "during")}
	catalogtest.CreateIndex(t, client, tg.Names, tg.Settings)
	s := catalog.New(client, catalog.Config{})
	if _, err := s.Upsert(ctx, tg, rawRecords(t, `{"objectID": "m", "name": "middle"}`)); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	progress := func(Progress) {
		once.Do(func() {
			for _, r := range []string{`{"objectID": "zz", "z": "abc"}`, `{"objectID": "aa", "z": 5}`} {
				if _, err := s.Upsert(ctx, tg, rawRecords(t, r)); err != nil {
					t.Errorf("a write during the rebuild: %v", err)
				}
			}
		})
	}
	tg.Settings.Synonyms = []searchv1alpha1.SynonymGroup{{Terms: []string{"tv", "television"}}}
	if _, err := Run(ctx, s, tg, progress); err != nil {
		t.Fatalf("the rebuild failed: %v", err)
	}
	if n, _ := s.Count(ctx, tg.Names.Alias()); n != 3 {
		t.Fatalf("after the rebuild the index holds %d records, want 3", n)
	}
}

func rawRecords(t *testing.T, raws ...string) []catalog.Record {
	t.Helper()
	msgs := make([]json.RawMessage, len(raws))
	for i, r := range raws {
		msgs[i] = json.RawMessage(r)
	}
	recs, err := catalog.ValidateRecords(msgs, 1, catalog.MaxPostRecords)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
