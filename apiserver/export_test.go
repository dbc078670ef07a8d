package apiserver_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/catalog"
)

var _ = Describe("Exporting records", func() {
	var ci catalogIndex
	BeforeEach(func() {
		ci = newCatalogIndex()
		r := call(0, "POST", ci.base+"/records", ci.writeKey, recordsBody(records("e", 5)))
		Expect(r.status).To(Equal(http.StatusAccepted), string(r.body))
	})
	page := func(query string) catalog.ExportPage {
		GinkgoHelper()
		return pageOn(0, ci, query)
	}

	It("returns every record once, in objectID order, in pages chained by their cursor", func() {
		var ids []string
		query, pages := "limit=2", 0
		for {
			p := page(query)
			pages++
			for _, rec := range p.Records {
				var r struct {
					ObjectID string `json:"objectID"`
					Version  *int64 `json:"aisleVersion"`
				}
				Expect(json.Unmarshal(rec, &r)).To(Succeed())
				Expect(r.Version).To(BeNil(), "records come without their stored version")
				ids = append(ids, r.ObjectID)
			}
			if p.Cursor == nil {
				break
			}
			query = "limit=2&cursor=" + url.QueryEscape(*p.Cursor)
		}
		Expect(pages).To(Equal(3))
		Expect(ids).To(Equal([]string{"e-0", "e-1", "e-2", "e-3", "e-4"}))
		Expect(page("").Records).To(HaveLen(5))
	})

	DescribeTable("refuses a bad limit or cursor with 400",
		func(query, message string) {
			r := call(0, "GET", ci.base+"/records?"+query, ci.writeKey, nil)
			Expect(r.status).To(Equal(http.StatusBadRequest))
			Expect(string(r.body)).To(ContainSubstring(message))
		},
		Entry("a limit of 0", "limit=0", "limit must be an integer from 1 to 1000"),
		Entry("a limit over 1,000", "limit=1001", "limit must be an integer from 1 to 1000"),
		Entry("a limit that is no integer", "limit=ten", "limit must be an integer from 1 to 1000"),
		Entry("a cursor that is not base64", "cursor=%25%25", "cursor is not one a page of GET /records returned"),
		Entry("an objectID as cursor (the cursors of old)", "cursor=ZS0x", "cursor is not one a page of GET /records returned"),
		Entry("an empty cursor made by hand", "cursor="+(catalog.Cursor{}).Encode(), "cursor is not one a page of GET /records returned"),
	)

	It("pages one snapshot: records written, changed and deleted meanwhile neither shift pages nor appear, on either replica", func() {
		Expect(call(0, "POST", ci.base+"/records", ci.writeKey, recordsBody(records("m", 95))).status).To(Equal(http.StatusAccepted))
		snapshot := exportIDs(0, ci, "limit=1000")
		Expect(snapshot).To(HaveLen(100))

		first := page("limit=30")
		Expect(first.Records).To(HaveLen(30))
		Expect(first.Cursor).NotTo(BeNil())
		// 50 new records, sorting before and after the pages read, and deletions and
		// changes of records of pages not read yet.
		var fresh []map[string]any
		for i := 0; i < 50; i++ {
			fresh = append(fresh, map[string]any{"objectID": fmt.Sprintf("%c-new-%d", "az"[i%2], i), "name": "new"})
		}
		Expect(call(0, "POST", ci.base+"/records", ci.writeKey, recordsBody(fresh)).status).To(Equal(http.StatusAccepted))
		for _, id := range []string{"m-50", "m-60", "m-70", "m-9"} {
			Expect(call(0, "DELETE", ci.base+"/records/"+id, ci.writeKey, nil).status).To(Equal(http.StatusAccepted))
		}
		Expect(call(0, "POST", ci.base+"/records", ci.writeKey, recordsBody([]map[string]any{{"objectID": "m-80", "name": "changed"}})).status).To(Equal(http.StatusAccepted))

		ids := recordIDs(first.Records)
		var names []string
		cursor := *first.Cursor
		for n := 1; ; n++ {
			p := pageOn(n, ci, "limit=30&cursor="+url.QueryEscape(cursor)) // alternate replicas
			ids = append(ids, recordIDs(p.Records)...)
			for _, rec := range p.Records {
				var r struct{ ObjectID, Name string }
				Expect(json.Unmarshal(rec, &r)).To(Succeed())
				if r.ObjectID == "m-80" {
					names = append(names, r.Name)
				}
			}
			if p.Cursor == nil {
				break
			}
			cursor = *p.Cursor
		}
		Expect(ids).To(Equal(snapshot), "exactly the snapshot's records, each once, in objectID order")
		Expect(names).To(Equal([]string{"product m 80"}), "as the snapshot had it")
		Expect(exportIDs(1, ci, "")).To(HaveLen(100+50-4), "a new export reads the records of now")
	})

	It("refuses a cursor altered or sent to another index with 400, and one whose snapshot is gone with 410", func() {
		first := page("limit=2")
		c := *first.Cursor
		altered := c[:len(c)-2] + map[bool]string{true: "AA", false: "BB"}[!strings.HasSuffix(c, "AA")]
		r := call(0, "GET", ci.base+"/records?limit=2&cursor="+url.QueryEscape(altered), ci.writeKey, nil)
		Expect(r.status).To(Equal(http.StatusBadRequest), string(r.body))

		other := newCatalogIndex()
		Expect(call(0, "POST", other.base+"/records", other.writeKey, recordsBody(records("o", 3))).status).To(Equal(http.StatusAccepted))
		r = call(0, "GET", other.base+"/records?limit=2&cursor="+url.QueryEscape(c), other.writeKey, nil)
		Expect(r.status).To(Equal(http.StatusBadRequest), string(r.body))
		Expect(string(r.body)).To(ContainSubstring("cursor is not one a page of GET /records returned"))

		// A cursor re-made for the other index with this index's snapshot reads no record of it.
		cur, err := catalog.DecodeCursor(c)
		Expect(err).NotTo(HaveOccurred())
		moved := *cur
		moved.Alias = other.names.Alias()
		r = call(0, "GET", other.base+"/records?limit=2&cursor="+url.QueryEscape(moved.Encode()), other.writeKey, nil)
		Expect(r.status).To(Equal(http.StatusBadRequest), string(r.body))

		_, err = esClient.ClosePointInTime().Id(cur.PIT).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		r = call(0, "GET", ci.base+"/records?limit=2&cursor="+url.QueryEscape(c), ci.writeKey, nil)
		Expect(r.status).To(Equal(http.StatusGone), string(r.body))
		Expect(string(r.body)).To(ContainSubstring("cursor expired"))
	})

	It("streams every record as one NDJSON line each from one snapshot, with Accept: application/x-ndjson", func() {
		recs := records("s", 2400)
		for from := 0; from < len(recs); from += catalog.MaxPostRecords {
			batch := recs[from:min(from+catalog.MaxPostRecords, len(recs))]
			Expect(call(0, "POST", ci.base+"/records", ci.writeKey, recordsBody(batch)).status).To(Equal(http.StatusAccepted))
		}
		r := callWith(1, "GET", ci.base+"/records", ci.writeKey, nil, map[string]string{"Accept": "application/x-ndjson"})
		Expect(r.status).To(Equal(http.StatusOK))
		Expect(r.header.Get("Content-Type")).To(HavePrefix("application/x-ndjson"))
		var ids []string
		sc := bufio.NewScanner(bytes.NewReader(r.body))
		for sc.Scan() {
			var rec struct {
				ObjectID string `json:"objectID"`
			}
			Expect(json.Unmarshal(sc.Bytes(), &rec)).To(Succeed(), sc.Text())
			Expect(rec.ObjectID).NotTo(BeEmpty(), sc.Text())
			ids = append(ids, rec.ObjectID)
		}
		Expect(ids).To(Equal(exportIDs(0, ci, "limit=1000")))
		Expect(ids).To(HaveLen(2405))

		bad := callWith(0, "GET", ci.base+"/records?cursor=%25", ci.writeKey, nil, map[string]string{"Accept": "application/x-ndjson"})
		Expect(bad.status).To(Equal(http.StatusBadRequest))
	})

	It("needs the write scope", func() {
		Expect(call(0, "GET", ci.base+"/records", ci.searchKey, nil).status).To(Equal(http.StatusForbidden))
		Expect(call(0, "POST", ci.base+"/records/browse", ci.searchKey, []byte(`{}`)).status).To(Equal(http.StatusForbidden))
	})
})

var _ = Describe("Browsing records by filter", func() {
	var ci catalogIndex
	BeforeEach(func() {
		ci = newCatalogIndex()
		Expect(call(0, "PUT", ci.base+"/config", ci.writeKey, []byte(`{"searchableFields": [{"path": "name"}], "filterableFields": ["brand"]}`)).status).To(Equal(http.StatusOK))
		var recs []map[string]any
		for i := 0; i < 9; i++ {
			recs = append(recs, map[string]any{"objectID": fmt.Sprintf("b-%d", i), "name": "x", "brand": []string{"acme", "other", "third"}[i%3]})
		}
		Expect(call(0, "POST", ci.base+"/records", ci.writeKey, recordsBody(recs)).status).To(Equal(http.StatusAccepted))
	})
	browse := func(i int, body string) response {
		return call(i, "POST", ci.base+"/records/browse", ci.writeKey, []byte(body))
	}

	It("pages the records a search filter matches from one snapshot, chained by cursor", func() {
		var ids []string
		body := `{"filters": {"field": "brand", "eq": "acme"}, "limit": 2}`
		for n := 0; ; n++ {
			r := browse(n, body)
			Expect(r.status).To(Equal(http.StatusOK), string(r.body))
			var p catalog.ExportPage
			Expect(json.Unmarshal(r.body, &p)).To(Succeed())
			ids = append(ids, recordIDs(p.Records)...)
			if p.Cursor == nil {
				break
			}
			if n == 0 {
				Expect(call(0, "POST", ci.base+"/records", ci.writeKey, recordsBody([]map[string]any{{"objectID": "b-10", "name": "x", "brand": "acme"}})).status).To(Equal(http.StatusAccepted))
			}
			body = fmt.Sprintf(`{"filters": {"field": "brand", "eq": "acme"}, "limit": 2, "cursor": %q}`, *p.Cursor)
		}
		Expect(ids).To(Equal([]string{"b-0", "b-3", "b-6"}))

		r := callWith(0, "POST", ci.base+"/records/browse", ci.writeKey, []byte(`{"filters": {"field": "brand", "eq": "other"}}`), map[string]string{"Accept": "application/x-ndjson"})
		Expect(r.status).To(Equal(http.StatusOK))
		Expect(strings.Count(string(r.body), "\n")).To(Equal(3))
	})

	DescribeTable("refuses a bad body with 400",
		func(body, message string) {
			r := browse(0, body)
			Expect(r.status).To(Equal(http.StatusBadRequest), string(r.body))
			Expect(string(r.body)).To(ContainSubstring(message))
		},
		Entry("a filter on a field that is not filterable", `{"filters": {"field": "name", "eq": "x"}}`, "name"),
		Entry("a limit of 0", `{"limit": 0}`, "limit must be an integer from 1 to 1000"),
		Entry("a limit over 1,000", `{"limit": 1001}`, "limit must be an integer from 1 to 1000"),
		Entry("an empty cursor", `{"cursor": ""}`, "cursor is not one a page of GET /records returned"),
		Entry("an unknown member", `{"filter": {}}`, "filter"),
	)

	It("refuses a cursor sent with other filters than its first page's", func() {
		r := browse(0, `{"filters": {"field": "brand", "eq": "acme"}, "limit": 1}`)
		Expect(r.status).To(Equal(http.StatusOK))
		var p catalog.ExportPage
		Expect(json.Unmarshal(r.body, &p)).To(Succeed())
		r = browse(0, fmt.Sprintf(`{"filters": {"field": "brand", "eq": "other"}, "cursor": %q}`, *p.Cursor))
		Expect(r.status).To(Equal(http.StatusBadRequest), string(r.body))
		r = call(0, "GET", ci.base+"/records?cursor="+url.QueryEscape(*p.Cursor), ci.writeKey, nil)
		Expect(r.status).To(Equal(http.StatusBadRequest), string(r.body))
	})
})

// pageOn reads one page of GET /records?query from replica i.
func pageOn(i int, ci catalogIndex, query string) catalog.ExportPage {
	GinkgoHelper()
	r := call(i, "GET", ci.base+"/records?"+query, ci.writeKey, nil)
	Expect(r.status).To(Equal(http.StatusOK), string(r.body))
	var p catalog.ExportPage
	Expect(json.Unmarshal(r.body, &p)).To(Succeed())
	return p
}

// exportIDs reads a whole export from replica i and returns its objectIDs in order.
func exportIDs(i int, ci catalogIndex, query string) []string {
	GinkgoHelper()
	var ids []string
	for {
		p := pageOn(i, ci, query)
		ids = append(ids, recordIDs(p.Records)...)
		if p.Cursor == nil {
			return ids
		}
		query = "limit=1000&cursor=" + url.QueryEscape(*p.Cursor)
	}
}

func recordIDs(recs []json.RawMessage) []string {
	GinkgoHelper()
	ids := make([]string, len(recs))
	for i, rec := range recs {
		var r struct {
			ObjectID string `json:"objectID"`
		}
		Expect(json.Unmarshal(rec, &r)).To(Succeed())
		ids[i] = r.ObjectID
	}
	return ids
}
