package rebuildrestart

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/gomega"
)

// expectation is what the last acknowledged write left of one record; an empty name
// means deleted.
type expectation struct {
	name    string
	version int64
}

// writer writes through the API server to its own share of the records (base ids of
// its parity, and new ids of its own) until stopped, repeating each write until it is
// acknowledged, and remembers what every acknowledged write left.
type writer struct {
	t       tenant
	id      int
	records int
	left    map[string]expectation
}

func (w *writer) run(stop <-chan struct{}) error {
	for n := 0; !stopped(stop, 0); n++ {
		if err := w.step(n); err != nil {
			return err
		}
	}
	return nil
}

// stopped waits up to pause and reports whether stop closed meanwhile.
func stopped(stop <-chan struct{}, pause time.Duration) bool {
	select {
	case <-stop:
		return true
	case <-time.After(pause):
		return false
	}
}

func (w *writer) step(n int) error {
	old := fmt.Sprintf("base-%d", (n*2+w.id)*7919%w.records)
	if n%4 == 3 {
		_, err := w.acknowledged(http.MethodDelete, "/records/"+old, nil)
		w.left[old] = expectation{}
		return err
	}
	name := fmt.Sprintf("written %d by %d", n, w.id)
	fresh := fmt.Sprintf("w%d-%d", w.id, n)
	rev, err := w.acknowledged(http.MethodPost, "/records", map[string]any{"records": []map[string]any{
		{"objectID": old, "name": name}, {"objectID": fresh, "name": name}}})
	w.left[old], w.left[fresh] = expectation{name, rev}, expectation{name, rev}
	return err
}

// acknowledged repeats a write until it gets its 202 (a 503 while the alias moves is
// safe to repeat) and returns its revision.
func (w *writer) acknowledged(method, path string, body any) (int64, error) {
	for range 100 {
		a, err := w.t.send(method, path, body)
		if err != nil {
			return 0, err
		}
		switch a.status {
		case http.StatusAccepted:
			var r struct {
				AcceptedRevision int64 `json:"acceptedRevision"`
			}
			return r.AcceptedRevision, json.Unmarshal(a.body, &r)
		case http.StatusServiceUnavailable:
			time.Sleep(100 * time.Millisecond)
		default:
			return 0, fmt.Errorf("%s %s answered %d: %s", method, path, a.status, a.body)
		}
	}
	return 0, fmt.Errorf("%s %s: still refused after 100 attempts", method, path)
}

// traffic is writers and a searcher running against a tenant until stopped.
type traffic struct {
	writers []*writer
	stop    chan struct{}
	wg      sync.WaitGroup
	errs    []error
}

func startTraffic(t tenant, records int) *traffic {
	tr := &traffic{stop: make(chan struct{}), errs: make([]error, 3)}
	for i := range 2 {
		w := &writer{t: t, id: i, records: records, left: map[string]expectation{}}
		tr.writers = append(tr.writers, w)
		tr.wg.Go(func() { tr.errs[i] = w.run(tr.stop) })
	}
	tr.wg.Go(func() { tr.errs[2] = search(t, tr.stop) })
	return tr
}

// search keeps searching until stop closes; every search must answer 200.
func search(t tenant, stop <-chan struct{}) error {
	for !stopped(stop, 50*time.Millisecond) {
		a, err := t.send(http.MethodPost, "/search", map[string]any{"q": "product", "limit": 1})
		if err == nil && a.status != http.StatusOK {
			err = fmt.Errorf("search answered %d: %s", a.status, a.body)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// finish stops the traffic and returns what the acknowledged writes left.
func (tr *traffic) finish() map[string]expectation {
	close(tr.stop)
	tr.wg.Wait()
	for _, err := range tr.errs {
		ExpectWithOffset(1, err).NotTo(HaveOccurred())
	}
	left := map[string]expectation{}
	for _, w := range tr.writers {
		for id, e := range w.left {
			left[id] = e
		}
	}
	ExpectWithOffset(1, len(left)).To(BeNumerically(">", 20), "writes ran all through the rebuild")
	return left
}

// expectRecords checks every record an acknowledged write left, with its version, and
// the exact count: records base records, less those deleted, plus the new ones.
func expectRecords(t tenant, records int, left map[string]expectation) {
	want := int64(records)
	for id, e := range left {
		a := t.call(http.MethodGet, "/records/"+id, nil)
		var got struct {
			Version int64          `json:"version"`
			Record  map[string]any `json:"record"`
		}
		ExpectWithOffset(1, json.Unmarshal(a.body, &got)).To(Succeed(), string(a.body))
		if e.name == "" {
			ExpectWithOffset(1, got.Record).To(BeNil(), "record %s was deleted", id)
			want--
			continue
		}
		ExpectWithOffset(1, got.Record).To(HaveKeyWithValue("name", e.name), "record %s", id)
		ExpectWithOffset(1, got.Version).To(Equal(e.version), "version of %s", id)
		if !strings.HasPrefix(id, "base-") {
			want++
		}
	}
	EventuallyWithOffset(1, t.count).Should(Equal(want))
}
