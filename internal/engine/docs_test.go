package engine_test

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/optype"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/result"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Document APIs", func() {
	var idx string
	BeforeEach(func() { idx = uniqueIndex("docs") })

	// ES docs: "Index API" > "Response body" — first write creates version 1 / seq_no 0,
	// status 201; a second write of the same id is "updated" with version 2.
	It("indexes, updates and reads a document with seq_no, primary term and version", func() {
		res, err := es.Index(idx).Id("1").Document(map[string]any{"title": "shoe"}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Result).To(Equal(result.Created))
		Expect(res.Version_).To(Equal(int64(1)))
		Expect(*res.SeqNo_).To(Equal(int64(0)))
		Expect(*res.PrimaryTerm_).To(Equal(int64(1)))

		res, err = es.Index(idx).Id("1").Document(map[string]any{"title": "boot"}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Result).To(Equal(result.Updated))
		Expect(res.Version_).To(Equal(int64(2)))
		Expect(*res.SeqNo_).To(Equal(int64(1)))

		// ES docs: "Get API" > "Realtime" — get is realtime, no refresh needed.
		got, err := es.Get(idx, "1").Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Found).To(BeTrue())
		Expect(string(got.Source_)).To(MatchJSON(`{"title":"boot"}`))
		Expect(*got.Version_).To(Equal(int64(2)))
	})

	DescribeTable("conditional writes answer 409 version_conflict_engine_exception",
		func(setup func() error, expectedReason string) {
			_, err := es.Index(idx).Id("1").Document(map[string]any{"a": 1}).Do(ctx)
			Expect(err).NotTo(HaveOccurred())
			e := esError(setup())
			Expect(e.Status).To(Equal(409))
			Expect(e.ErrorCause.Type).To(Equal("version_conflict_engine_exception"))
			Expect(*e.ErrorCause.Reason).To(ContainSubstring(expectedReason))
		},
		// ES docs: "Index API" > "Optimistic concurrency control" (if_seq_no / if_primary_term).
		Entry("wrong if_seq_no", func() error {
			_, err := es.Index(idx).Id("1").IfSeqNo("10000").IfPrimaryTerm("1").Document(map[string]any{"a": 2}).Do(ctx)
			return err
		}, "required seqNo [10000], primary term [1]. current document has seqNo [0] and primary term [1]"),
		Entry("wrong if_primary_term", func() error {
			_, err := es.Index(idx).Id("1").IfSeqNo("0").IfPrimaryTerm("1000").Document(map[string]any{"a": 2}).Do(ctx)
			return err
		}, "required seqNo [0], primary term [1000]"),
		// ES docs: "Index API" > "op_type" — create fails if the id exists.
		Entry("op_type=create on an existing id", func() error {
			_, err := es.Index(idx).Id("1").OpType(optype.Create).Document(map[string]any{"a": 2}).Do(ctx)
			return err
		}, "document already exists (current version [1])"),
		Entry("_create endpoint on an existing id", func() error {
			_, err := es.Create(idx, "1").Document(map[string]any{"a": 2}).Do(ctx)
			return err
		}, "document already exists"),
		// ES docs: "Delete API" > "Optimistic concurrency control".
		Entry("delete with a stale if_seq_no", func() error {
			_, err := es.Delete(idx, "1").IfSeqNo("7").IfPrimaryTerm("1").Do(ctx)
			return err
		}, "required seqNo [7]"),
	)

	It("accepts a write whose if_seq_no and if_primary_term match", func() {
		first, err := es.Index(idx).Id("1").Document(map[string]any{"a": 1}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		res, err := es.Index(idx).Id("1").IfSeqNo(strconv.FormatInt(*first.SeqNo_, 10)).IfPrimaryTerm("1").Document(map[string]any{"a": 2}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Version_).To(Equal(int64(2)))
	})

	// ES docs: "Delete API" — deleting a missing document answers 404 with result not_found.
	It("deletes documents and reports not_found for missing ones", func() {
		_, err := es.Index(idx).Id("1").Document(map[string]any{"a": 1}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		del, err := es.Delete(idx, "1").Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(del.Result).To(Equal(result.Deleted))
		Expect(del.Version_).To(Equal(int64(2)))
		status, body, _ := rawDo("DELETE", "/"+idx+"/_doc/1", "", "")
		Expect(status).To(Equal(404))
		Expect(body).To(ContainSubstring(`"result":"not_found"`))
		exists, err := es.Exists(idx, "1").Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(exists).To(BeFalse())
	})

	// ES docs: "Get API" > "Response" for a missing index: 404 index_not_found_exception.
	It("answers index_not_found_exception for gets on a missing index", func() {
		status, body, _ := rawDo("GET", "/no-such-index/_doc/1", "", "")
		Expect(status).To(Equal(404))
		var e struct {
			Error struct {
				Type      string `json:"type"`
				RootCause []struct {
					Type string `json:"type"`
				} `json:"root_cause"`
			} `json:"error"`
			Status int `json:"status"`
		}
		Expect(json.Unmarshal([]byte(body), &e)).To(Succeed())
		Expect(e.Error.Type).To(Equal("index_not_found_exception"))
		Expect(e.Error.RootCause[0].Type).To(Equal("index_not_found_exception"))
		Expect(e.Status).To(Equal(404))
	})

	// ES docs: "Bulk API" > "Response body" — errors:true and one item per action with its
	// own status and error.
	It("runs a bulk with mixed success and per-item errors", func() {
		_, err := es.Indices.Create(idx).Mappings(&types.TypeMapping{Properties: map[string]types.Property{
			"n": types.NewLongNumberProperty()}}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		b := es.Bulk().Refresh(refresh.True)
		Expect(b.IndexOp(types.IndexOperation{Index_: &idx, Id_: ptr("a")}, map[string]any{"n": 1})).To(Succeed())
		Expect(b.CreateOp(types.CreateOperation{Index_: &idx, Id_: ptr("a")}, map[string]any{"n": 2})).To(Succeed())
		Expect(b.IndexOp(types.IndexOperation{Index_: &idx, Id_: ptr("b")}, map[string]any{"n": "not a number"})).To(Succeed())
		Expect(b.DeleteOp(types.DeleteOperation{Index_: &idx, Id_: ptr("missing")})).To(Succeed())
		Expect(b.IndexOp(types.IndexOperation{Index_: &idx, Id_: ptr("c"), IfSeqNo: ptr(int64(99)), IfPrimaryTerm: ptr(int64(1))}, map[string]any{"n": 3})).To(Succeed())
		Expect(b.IndexOp(types.IndexOperation{Index_: &idx, Id_: ptr("d")}, map[string]any{"n": 4})).To(Succeed())
		res, err := b.Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Errors).To(BeTrue())
		Expect(res.Items).To(HaveLen(6))
		status := func(i int) (int, string) {
			for _, item := range res.Items[i] {
				t := ""
				if item.Error != nil {
					t = item.Error.Type
				}
				return item.Status, t
			}
			return 0, ""
		}
		Expect(first(status(0))).To(Equal(201))
		Expect(pair(status(1))).To(Equal([2]any{409, "version_conflict_engine_exception"}))
		Expect(pair(status(2))).To(Equal([2]any{400, "document_parsing_exception"}))
		Expect(first(status(3))).To(Equal(404))
		Expect(pair(status(4))).To(Equal([2]any{409, "version_conflict_engine_exception"}))
		Expect(first(status(5))).To(Equal(201))
		count, err := es.Count().Index(idx).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(count.Count).To(Equal(int64(2)))
	})

	// ES docs: "Multi get API" — missing docs are found:false, docs of missing indices carry
	// an error, in request order.
	It("serves _mget with found, missing and error entries", func() {
		_, err := es.Index(idx).Id("1").Document(map[string]any{"x": "y", "z": 1}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		body := `{"docs":[{"_index":"` + idx + `","_id":"1","_source":["x"]},{"_index":"` + idx + `","_id":"2"},{"_index":"nope-index","_id":"1"}]}`
		status, raw, _ := rawDo("POST", "/_mget", "application/json", body)
		Expect(status).To(Equal(200))
		var out struct {
			Docs []map[string]json.RawMessage `json:"docs"`
		}
		Expect(json.Unmarshal([]byte(raw), &out)).To(Succeed())
		Expect(out.Docs).To(HaveLen(3))
		Expect(string(out.Docs[0]["_source"])).To(MatchJSON(`{"x":"y"}`))
		Expect(string(out.Docs[1]["found"])).To(Equal("false"))
		Expect(string(out.Docs[2]["error"])).To(ContainSubstring("index_not_found_exception"))
	})

	// ES docs: "Get API" > "Realtime": realtime=false reads the refreshed searcher.
	It("hides unrefreshed documents from search but not from realtime get", func() {
		_, err := es.Indices.Create(idx).Settings(&types.IndexSettings{RefreshInterval: types.Duration("-1")}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		_, err = es.Index(idx).Id("1").Document(map[string]any{"a": 1}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		cnt, err := es.Count().Index(idx).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(cnt.Count).To(Equal(int64(0)))
		status, _, _ := rawDo("GET", "/"+idx+"/_doc/1?realtime=false", "", "")
		Expect(status).To(Equal(404))
		got, err := es.Get(idx, "1").Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Found).To(BeTrue())
		_, err = es.Indices.Refresh().Index(idx).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		cnt, err = es.Count().Index(idx).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(cnt.Count).To(Equal(int64(1)))
	})

	// ES docs: "Refresh parameter" — refresh=wait_for returns once the write is searchable.
	It("makes a write searchable before answering with refresh=wait_for", func() {
		_, err := es.Index(idx).Id("1").Document(map[string]any{"a": 1}).Refresh(refresh.Waitfor).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		cnt, err := es.Count().Index(idx).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(cnt.Count).To(Equal(int64(1)))
	})

	// ES: search becomes visible within index.refresh_interval (1s default) without refresh.
	It("refreshes periodically like index.refresh_interval", func() {
		_, err := es.Index(idx).Id("1").Document(map[string]any{"a": 1}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Eventually(func() int64 {
			c, err := es.Count().Index(idx).Do(ctx)
			Expect(err).NotTo(HaveOccurred())
			return c.Count
		}).WithTimeout(5 * time.Second).Should(Equal(int64(1)))
	})
})

func ptr[T any](v T) *T { return &v }

func first(a int, _ string) int { return a }

func pair(a int, b string) [2]any { return [2]any{a, b} }

// ES docs: "Mapping limit settings": index.mapping.total_fields.limit, default 1000;
// a document that would add fields past it is refused with 400 and nothing is indexed.
var _ = Describe("The total fields limit", func() {
	It("refuses a document that takes the mapping past 1,000 fields, and keeps the ones within it", func() {
		idx := uniqueIndex("fields")
		within := map[string]any{}
		for i := range 999 {
			within["f"+strconv.Itoa(i)] = i
		}
		_, err := es.Index(idx).Id("1").Document(within).Do(ctx)
		Expect(err).NotTo(HaveOccurred())

		past := map[string]any{"f0": 1, "g1": 1, "g2": 2}
		e := esError(func() error { _, err := es.Index(idx).Id("2").Document(past).Do(ctx); return err }())
		Expect(e.Status).To(Equal(400))
		Expect(e.ErrorCause.Type).To(Equal("illegal_argument_exception"))
		Expect(*e.ErrorCause.Reason).To(Equal("Limit of total fields [1000] has been exceeded"))
		found, err := es.Exists(idx, "2").Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(found).To(BeFalse())
	})
})
