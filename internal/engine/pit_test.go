package engine_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// search/350_point_in_time.yml (test/conformance) holds points in time to
// Elasticsearch's answers; these specs cover what it leaves out: a snapshot that writes,
// deletes, updates and merges after it do not change, expiry, and refused requests.
var _ = Describe("A point in time", func() {
	var idx string
	BeforeEach(func() { idx = uniqueIndex("pit") })

	bulkIndex := func(from, to int, v int) {
		var b strings.Builder
		for i := from; i < to; i++ {
			fmt.Fprintf(&b, `{"index":{"_id":"d%04d"}}`+"\n"+`{"n":%d,"v":%d}`+"\n", i, i, v)
		}
		res, err := es.Bulk().Index(idx).Raw(strings.NewReader(b.String())).Refresh(refresh.True).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Errors).To(BeFalse())
	}

	// pages reads every hit of the point in time id, size at a time, by _shard_doc.
	pages := func(id string, size int) (ids []string, vs map[string]int) {
		vs = map[string]int{}
		var after []types.FieldValue
		for {
			req := es.Search().Pit(&types.PointInTimeReference{Id: id, KeepAlive: "1m"}).Size(size).
				Sort(map[string]any{"_shard_doc": "asc"})
			if after != nil {
				req = req.SearchAfter(after...)
			}
			res, err := req.Do(ctx)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.PitId).NotTo(BeNil())
			Expect(*res.PitId).To(Equal(id))
			if len(res.Hits.Hits) == 0 {
				return ids, vs
			}
			for _, h := range res.Hits.Hits {
				var src struct{ V int }
				Expect(json.Unmarshal(h.Source_, &src)).To(Succeed())
				ids = append(ids, *h.Id_)
				vs[*h.Id_] = src.V
			}
			after = res.Hits.Hits[len(res.Hits.Hits)-1].Sort
		}
	}

	It("pages the documents of the moment it opened, whatever is written, updated, deleted and merged after", func() {
		bulkIndex(0, 300, 0)
		opened, err := es.OpenPointInTime(idx).KeepAlive("1m").Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { _, _ = es.ClosePointInTime().Id(opened.Id).Do(ctx) })

		// Each refresh adds segments that scorch merges with those the snapshot holds.
		for round := 0; round < 5; round++ {
			bulkIndex(round*20, round*20+20, round+1)
			bulkIndex(300+round*40, 340+round*40, 9)
			var del strings.Builder
			for i := 200 + round*10; i < 210+round*10; i++ {
				fmt.Fprintf(&del, `{"delete":{"_id":"d%04d"}}`+"\n", i)
			}
			_, err := es.Bulk().Index(idx).Raw(strings.NewReader(del.String())).Refresh(refresh.True).Do(ctx)
			Expect(err).NotTo(HaveOccurred())
		}

		ids, vs := pages(opened.Id, 37)
		Expect(ids).To(HaveLen(300))
		seen := map[string]bool{}
		for i, id := range ids {
			Expect(seen[id]).To(BeFalse(), "%s twice", id)
			seen[id] = true
			Expect(id).To(Equal(fmt.Sprintf("d%04d", i)), "in _shard_doc order")
			Expect(vs[id]).To(Equal(0), "the source %s had when the point in time opened", id)
		}

		live, err := es.Count().Index(idx).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(live.Count).To(Equal(int64(300 + 200 - 50)))
	})

	It("holds what was written before it opened, refreshed or not", func() {
		_, err := es.Indices.Create(idx).Settings(&types.IndexSettings{RefreshInterval: "-1"}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		_, err = es.Index(idx).Id("a").Document(map[string]any{"v": 1}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		opened, err := es.OpenPointInTime(idx).KeepAlive("1m").Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		ids, _ := pages(opened.Id, 10)
		Expect(ids).To(Equal([]string{"a"}))
		closed, err := es.ClosePointInTime().Id(opened.Id).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(closed.NumFreed).To(Equal(1))
	})

	It("expires once idle for its keep_alive: a search of it is then a 404", func() {
		bulkIndex(0, 3, 0)
		opened, err := es.OpenPointInTime(idx).KeepAlive("1s").Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Eventually(func() int {
			status, _, _ := rawDo("POST", "/_search", "application/json", `{"pit":{"id":"`+opened.Id+`"}}`)
			return status
		}, "10s", "200ms").Should(Equal(404))
		status, body, _ := rawDo("POST", "/_search", "application/json", `{"pit":{"id":"`+opened.Id+`"}}`)
		Expect(status).To(Equal(404))
		Expect(body).To(ContainSubstring("search_context_missing_exception"))
	})

	It("answers a search of one whose index was deleted since as a missing one, a 404", func() {
		bulkIndex(0, 3, 0)
		opened, err := es.OpenPointInTime(idx).KeepAlive("1m").Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		_, err = es.Indices.Delete(idx).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		status, body, _ := rawDo("POST", "/_search", "application/json", `{"pit":{"id":"`+opened.Id+`"}}`)
		Expect(status).To(Equal(404), body)
		Expect(body).To(ContainSubstring("search_context_missing_exception"))
		closed, err := es.ClosePointInTime().Id(opened.Id).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(closed.NumFreed).To(Equal(1), "closing it still releases its segments")
	})

	DescribeTable("refuses what Elasticsearch refuses",
		func(method, path, body string, status int, says string) {
			bulkIndex(0, 1, 0)
			if strings.Contains(body, "OPEN") {
				opened, err := es.OpenPointInTime(idx).KeepAlive("1m").Do(ctx)
				Expect(err).NotTo(HaveOccurred())
				DeferCleanup(func() { _, _ = es.ClosePointInTime().Id(opened.Id).Do(ctx) })
				body = strings.ReplaceAll(body, "OPEN", opened.Id)
			}
			got, text, _ := rawDo(method, strings.ReplaceAll(path, "IDX", idx), "application/json", body)
			Expect(got).To(Equal(status), text)
			Expect(text).To(ContainSubstring(says))
		},
		Entry("_shard_doc without a point in time", "POST", "/IDX/_search", `{"sort":["_shard_doc"]}`, 400, "cannot be used without [point in time]"),
		Entry("an index in the path of a point in time search", "POST", "/IDX/_search", `{"pit":{"id":"OPEN"}}`, 400, "[indices] cannot be used with point in time"),
		Entry("an unknown point in time", "POST", "/_search", `{"pit":{"id":"nope"}}`, 404, "No search context found for id [nope]"),
		Entry("a pit without an id", "POST", "/_search", `{"pit":{"keep_alive":"1m"}}`, 400, "requires [id]"),
		Entry("a bad keep_alive of a search", "POST", "/_search", `{"pit":{"id":"OPEN","keep_alive":"soon"}}`, 400, "keep_alive"),
		Entry("opening without keep_alive", "POST", "/IDX/_pit", ``, 400, "[keep_alive] is not specified"),
		Entry("a keep_alive past a day", "POST", "/IDX/_pit?keep_alive=2d", ``, 400, "at most 24h"),
		Entry("opening over a missing index", "POST", "/IDX-none/_pit?keep_alive=1m", ``, 404, "index_not_found_exception"),
		Entry("closing an unknown point in time", "DELETE", "/_pit", `{"id":"nope"}`, 404, `"num_freed":0`),
		Entry("closing without an id", "DELETE", "/_pit", `{}`, 400, "[id]"),
	)
})
