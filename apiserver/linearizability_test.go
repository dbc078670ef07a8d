package apiserver_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"github.com/anishathalye/porcupine"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// regInput is one operation on a record register: a conditional upsert or delete, or a read.
type regInput struct {
	op       string
	key      string
	expected int64
}

// regOutput is what the API answered: 202 with the write's revision, 409, or a version read.
type regOutput struct {
	status  int
	rev     int64
	version int64
}

// registerModel is a versioned register per record: a write applies only if the version
// equals the expected one, and an upsert's new version is its revision (above the old).
var registerModel = porcupine.Model{
	Partition: func(history []porcupine.Operation) [][]porcupine.Operation {
		byKey := map[string][]porcupine.Operation{}
		for _, op := range history {
			k := op.Input.(regInput).key
			byKey[k] = append(byKey[k], op)
		}
		out := make([][]porcupine.Operation, 0, len(byKey))
		for _, ops := range byKey {
			out = append(out, ops)
		}
		return out
	},
	Init: func() any { return int64(0) },
	Step: func(state, input, output any) (bool, any) {
		v, in, out := state.(int64), input.(regInput), output.(regOutput)
		switch {
		case in.op == "read":
			return out.version == v, v
		case out.status == http.StatusConflict:
			return v != in.expected, v
		case in.op == "upsert":
			return v == in.expected && out.rev > v, out.rev
		default: // delete
			return v == in.expected, int64(0)
		}
	},
	DescribeOperation: func(input, output any) string {
		in, out := input.(regInput), output.(regOutput)
		if in.op == "read" {
			return fmt.Sprintf("read(%s) -> %d", in.key, out.version)
		}
		return fmt.Sprintf("%s(%s, expect %d) -> %d rev %d", in.op, in.key, in.expected, out.status, out.rev)
	},
}

var _ = Describe("Consistency across two replicas", func() {
	var ci catalogIndex
	BeforeEach(func() { ci = newCatalogIndex() })

	It("keeps per-record conditional writes linearizable over thousands of random operations", func() {
		const clients, opsPerClient = 8, 250
		keysUsed := []string{"r0", "r1", "r2", "r3"}
		var (
			mu      sync.Mutex
			history []porcupine.Operation
			wg      sync.WaitGroup
		)
		start := time.Now()
		for c := 0; c < clients; c++ {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(c), 7))
				seen := map[string]int64{}
				for n := 0; n < opsPerClient; n++ {
					key := keysUsed[rng.IntN(len(keysUsed))]
					in := regInput{key: key, expected: seen[key]}
					switch p := rng.IntN(10); {
					case p < 4:
						in.op = "read"
					case p < 8:
						in.op = "upsert"
					default:
						in.op = "delete"
					}
					if rng.IntN(5) == 0 {
						in.expected = int64(rng.IntN(3)) // often stale
					}
					call := time.Since(start).Nanoseconds()
					out := runRegisterOp(c, ci, in)
					ret := time.Since(start).Nanoseconds()
					if in.op == "read" {
						seen[key] = out.version
					} else if out.status == http.StatusAccepted && in.op == "upsert" {
						seen[key] = out.rev
					} else if out.status == http.StatusAccepted {
						seen[key] = 0
					}
					mu.Lock()
					history = append(history, porcupine.Operation{ClientId: c, Input: in, Call: call, Output: out, Return: ret})
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		Expect(history).To(HaveLen(clients * opsPerClient))
		result := porcupine.CheckOperationsTimeout(registerModel, history, time.Minute)
		Expect(result).To(Equal(porcupine.Ok), "the history is not linearizable")
	})

	It("hands out unique revisions across both replicas, and indexedRevision never covers a write that is not searchable", func() {
		const writers, perWriter = 6, 20
		type snapshot struct {
			indexed int64
			visible map[int64]bool
		}
		var (
			mu        sync.Mutex
			revisions []int64
			snapshots []snapshot
			wg        sync.WaitGroup
			done      = make(chan struct{})
		)
		go func() { // a reader: indexedRevision, then what a search sees
			defer GinkgoRecover()
			for {
				select {
				case <-done:
					return
				default:
				}
				r, err := callE(1, "GET", ci.base+"/indexing", ci.searchKey, nil)
				Expect(err).NotTo(HaveOccurred())
				indexed := r.receipt().IndexedRevision
				res, err := esClient.Search().Index(ci.names.Alias()).Size(1000).Do(ctx)
				Expect(err).NotTo(HaveOccurred())
				visible := map[int64]bool{}
				for _, h := range res.Hits.Hits {
					var doc struct {
						V int64 `json:"aisleVersion"`
					}
					Expect(json.Unmarshal(h.Source_, &doc)).To(Succeed())
					visible[doc.V] = true
				}
				mu.Lock()
				snapshots = append(snapshots, snapshot{indexed, visible})
				mu.Unlock()
			}
		}()
		for w := 0; w < writers; w++ {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				for n := 0; n < perWriter; n++ {
					r, err := callE(w, "POST", ci.base+"/records", ci.writeKey,
						recordsBody([]map[string]any{{"objectID": fmt.Sprintf("w%d-%d", w, n)}}))
					Expect(err).NotTo(HaveOccurred())
					Expect(r.status).To(Equal(http.StatusAccepted), string(r.body))
					mu.Lock()
					revisions = append(revisions, r.receipt().AcceptedRevision)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		close(done)
		Expect(revisions).To(HaveLen(writers * perWriter))
		unique := map[int64]bool{}
		for _, r := range revisions {
			Expect(unique).NotTo(HaveKey(r), "revision %d handed out twice", r)
			unique[r] = true
		}
		mu.Lock()
		defer mu.Unlock()
		Expect(len(snapshots)).To(BeNumerically(">", 1))
		for _, s := range snapshots {
			for _, r := range revisions {
				if r <= s.indexed {
					Expect(s.visible).To(HaveKey(r), "revision %d is at or below indexedRevision %d but was not searchable", r, s.indexed)
				}
			}
		}
	})
})

// runRegisterOp performs one operation through replica c%2.
func runRegisterOp(c int, ci catalogIndex, in regInput) regOutput {
	if in.op == "read" {
		r := call(c, "GET", ci.base+"/records/"+in.key, ci.writeKey, nil)
		Expect(r.status).To(Equal(http.StatusOK))
		var got struct {
			Version int64 `json:"version"`
		}
		Expect(json.Unmarshal(r.body, &got)).To(Succeed())
		return regOutput{status: r.status, version: got.Version}
	}
	body := map[string]any{"operation": in.op, "objectID": in.key, "expectedVersion": in.expected}
	if in.op == "upsert" {
		body["record"] = map[string]any{"objectID": in.key, "by": c}
	}
	r := call(c, "POST", ci.base+"/record-writes", ci.writeKey, body)
	Expect(r.status).To(BeElementOf(http.StatusAccepted, http.StatusConflict), string(r.body))
	out := regOutput{status: r.status}
	if r.status == http.StatusAccepted {
		out.rev = r.receipt().AcceptedRevision
	}
	return out
}
