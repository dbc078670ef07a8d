package engine_test

import (
	"encoding/json"
	"strconv"
	"sync"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/result"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The YAML tests of update/ (test/conformance) hold the update API to Elasticsearch's
// answers; these specs cover what they leave out: require_alias, scripts, bulk update
// actions and concurrent updates of one document.
var _ = Describe("The update API", func() {
	var idx string
	BeforeEach(func() { idx = uniqueIndex("update") })

	It("merges doc into the document, answers its filtered _source, and takes retry_on_conflict", func() {
		_, err := es.Index(idx).Id("1").Document(map[string]any{"name": "shoe", "stock": 3, "dims": map[string]any{"w": 1, "h": 2}}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		res, err := es.Update(idx, "1").Doc(map[string]any{"stock": 2, "dims": map[string]any{"h": 5}}).
			SourceIncludes_("stock", "dims").RetryOnConflict(3).Refresh(refresh.Waitfor).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Result).To(Equal(result.Updated))
		Expect(res.Version_).To(Equal(int64(2)))
		Expect(string(res.Get.Source_)).To(MatchJSON(`{"stock":2,"dims":{"w":1,"h":5}}`))
	})

	It("refuses a script with a 400 that says scripts are not supported", func() {
		_, err := es.Index(idx).Id("1").Document(map[string]any{"n": 1}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		src := "ctx._source.n += 1"
		_, err = es.Update(idx, "1").Script(&types.Script{Source: &src}).Do(ctx)
		e := esError(err)
		Expect(e.Status).To(Equal(400))
		Expect(*e.ErrorCause.Reason).To(ContainSubstring("scripts are not supported"))
	})

	It("with require_alias refuses a missing alias, creating nothing, and updates through an alias", func() {
		_, err := es.Update(idx+"-alias", "1").Doc(map[string]any{"a": 1}).DocAsUpsert(true).RequireAlias(true).Do(ctx)
		Expect(esError(err).Status).To(Equal(404))
		exists, err := es.Indices.Exists(idx + "-alias").Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(exists).To(BeFalse())

		_, err = es.Indices.Create(idx).Aliases(map[string]types.Alias{idx + "-alias": {}}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		res, err := es.Update(idx+"-alias", "1").Doc(map[string]any{"a": 1}).DocAsUpsert(true).RequireAlias(true).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Result).To(Equal(result.Created))
		Expect(res.Index_).To(Equal(idx))
	})

	It("applies bulk update actions item by item: updated, noop, created by upsert, missing, script", func() {
		_, err := es.Index(idx).Id("1").Document(map[string]any{"n": 1, "tags": []string{"a"}}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		body := `{"update":{"_id":"1","retry_on_conflict":2}}
{"doc":{"n":2},"_source":true}
{"update":{"_id":"1"}}
{"doc":{"n":2}}
{"update":{"_id":"2"}}
{"doc":{"n":9},"doc_as_upsert":true}
{"update":{"_id":"3"}}
{"doc":{"n":9}}
{"update":{"_id":"1"}}
{"script":{"source":"ctx._source.n++"}}
`
		status, out, _ := rawDo("POST", "/"+idx+"/_bulk?refresh=wait_for", "application/x-ndjson", body)
		Expect(status).To(Equal(200))
		var res struct {
			Errors bool `json:"errors"`
			Items  []map[string]struct {
				Status  int    `json:"status"`
				Result  string `json:"result"`
				Version int64  `json:"_version"`
				Get     *struct {
					Source json.RawMessage `json:"_source"`
				} `json:"get"`
				Error *struct {
					Type string `json:"type"`
				} `json:"error"`
			} `json:"items"`
		}
		Expect(json.Unmarshal([]byte(out), &res)).To(Succeed())
		Expect(res.Errors).To(BeTrue())
		Expect(res.Items).To(HaveLen(5))
		u := func(i int) string {
			it := res.Items[i]["update"]
			if it.Error != nil {
				return strconv.Itoa(it.Status) + " " + it.Error.Type
			}
			return strconv.Itoa(it.Status) + " " + it.Result + " v" + strconv.FormatInt(it.Version, 10)
		}
		Expect([]string{u(0), u(1), u(2), u(3), u(4)}).To(Equal([]string{
			"200 updated v2", "200 noop v2", "201 created v1", "404 document_missing_exception", "400 illegal_argument_exception"}))
		Expect(string(res.Items[0]["update"].Get.Source)).To(MatchJSON(`{"n":2,"tags":["a"]}`))

		got, err := es.Search().Index(idx).Query(&types.Query{Term: map[string]types.TermQuery{"n": {Value: 9}}}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Hits.Total.Value).To(Equal(int64(1)))
	})

	It("loses no update when many clients update one document at once", func() {
		_, err := es.Index(idx).Id("1").Document(map[string]any{"n": 0}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		var wg sync.WaitGroup
		for c := range 8 {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				for i := range 25 {
					_, err := es.Update(idx, "1").Doc(map[string]any{"c" + strconv.Itoa(c): i}).Do(ctx)
					Expect(err).NotTo(HaveOccurred())
				}
			}()
		}
		wg.Wait()
		got, err := es.Get(idx, "1").Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		// every client's last value is there: no update overwrote another's field
		var src map[string]int
		Expect(json.Unmarshal(got.Source_, &src)).To(Succeed())
		Expect(src).To(HaveLen(9))
		for c := range 8 {
			Expect(src["c"+strconv.Itoa(c)]).To(Equal(24))
		}
		Expect(*got.Version_).To(Equal(int64(1 + 8*25)))
	})
})
