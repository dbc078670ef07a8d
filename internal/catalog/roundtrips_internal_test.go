package catalog

import (
	"context"
	"regexp"
	"slices"
	"testing"
	"time"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// TestWriteRoundTrips lists the requests a replica sends to the backend for each kind of
// single-record write, once it has seen the index (docs/benchmarks.md lists them).
func TestWriteRoundTrips(t *testing.T) {
	tr := &tracer{}
	client := tracedClient(t, startEngine(t), tr)
	ctx := context.Background()
	tg := newTarget(t, client, "rt", "a", searchv1alpha1.IndexSettings{SearchableFields: []searchv1alpha1.SearchableField{{Path: "name"}}})
	other := newTarget(t, client, "rt", "b", searchv1alpha1.IndexSettings{})
	tg.MaxRecords, tg.OtherAliases = 1000, []string{other.Names.Alias()}
	svc := New(client, Config{ReserveIdle: time.Minute}) // no release in the background
	if _, err := svc.Upsert(ctx, tg, crashRecords("seen", 1)); err != nil {
		t.Fatal(err)
	}
	tr.Take("")
	const prefix = "/aisle.rt.a."

	cases := []struct {
		name  string
		write func() error
		want  []string
	}{
		{"POST /records, one record", func() error {
			_, err := svc.Upsert(ctx, tg, crashRecords("one", 1))
			return err
		}, []string{
			"GET control/_doc/revision?realtime=true", // the reservation holds; the count is known
			"POST /aisle.rt.b.records/_count",         // the plan: the workspace's other index
			"POST records/_bulk?refresh=wait_for&require_alias=true",
			"PUT control/_doc/revision?if_primary_term=1&if_seq_no=N", // complete, reserve the next
		}},
		{"conditional create", func() error {
			_, err := svc.ConditionalWrite(ctx, tg, conditional(t, "c", 0, ""), "h1")
			return err
		}, []string{
			"GET control/_doc/revision?realtime=true", "POST /aisle.rt.b.records/_count",
			"PUT records/_doc/c?op_type=create&refresh=wait_for&require_alias=true",
			"PUT control/_doc/revision?if_primary_term=1&if_seq_no=N",
		}},
		{"conditional update with an idempotency key", func() error {
			_, err := svc.ConditionalWrite(ctx, tg, conditional(t, "c", 3, "k"), "h2")
			return err
		}, []string{
			"PUT control/_doc/idem.k?op_type=create",
			"GET control/_doc/revision?realtime=true",
			"GET records/_doc/c?realtime=true",
			"PUT records/_doc/c?if_primary_term=1&if_seq_no=N&refresh=wait_for&require_alias=true",
			"PUT control/_doc/revision?if_primary_term=1&if_seq_no=N",
			"PUT control/_doc/idem.k?if_primary_term=1&if_seq_no=N",
		}},
	}
	for _, c := range cases {
		if err := c.write(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, want := sorted(tr.Take(prefix)), sorted(c.want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: round trips\n%q\nwant\n%q", c.name, got, want)
		}
	}
}

func conditional(t *testing.T, id string, expected int64, key string) Conditional {
	t.Helper()
	c, err := ValidateConditional(ConditionalRequest{Operation: OpUpsert, ObjectID: id,
		Record: []byte(`{"objectID":"` + id + `","name":"n"}`), ExpectedVersion: &expected})
	if err != nil {
		t.Fatal(err)
	}
	c.IdempotencyKey = key
	return c
}

var seqNo = regexp.MustCompile(`if_seq_no=\d+`)

// sorted orders round trips (those made at once arrive in any order), with the
// sequence numbers of compare-and-sets left out.
func sorted(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = seqNo.ReplaceAllString(l, "if_seq_no=N")
	}
	slices.Sort(out)
	return out
}
