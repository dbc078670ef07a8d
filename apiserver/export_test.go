package apiserver_test

import (
	"encoding/json"
	"net/http"
	"net/url"

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
		r := call(0, "GET", ci.base+"/records?"+query, ci.writeKey, nil)
		Expect(r.status).To(Equal(http.StatusOK), string(r.body))
		var p catalog.ExportPage
		Expect(json.Unmarshal(r.body, &p)).To(Succeed())
		return p
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
	)

	It("needs the write scope", func() {
		Expect(call(0, "GET", ci.base+"/records", ci.searchKey, nil).status).To(Equal(http.StatusForbidden))
	})
})
