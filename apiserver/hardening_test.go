package apiserver_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/apiserver"
)

// The specs of issue 15: inputs a careless client or an attacker can send get a 4xx
// with {"error"}, never a 5xx, and nothing is written.

// expectRefused checks a 4xx answer with an error message containing want.
func expectRefused(r response, status int, want string) {
	GinkgoHelper()
	Expect(r.status).To(Equal(status), "body: %s", r.body)
	var body struct {
		Error string `json:"error"`
	}
	Expect(json.Unmarshal(r.body, &body)).To(Succeed())
	Expect(body.Error).To(ContainSubstring(want))
}

func publicCall(body string) response {
	GinkgoHelper()
	rec := send(server, http.MethodPost, publicPath, "", body, map[string]string{"Origin": allowedOrigin, "User-Agent": "hardening-spec"})
	return response{status: rec.Code, body: rec.Body.Bytes(), header: rec.Header()}
}

func keyedSearch(body string) response {
	GinkgoHelper()
	rec := post("/api/teams/acme/indexes/catalog/search", keys["catalog"], body)
	return response{status: rec.Code, body: rec.Body.Bytes(), header: rec.Header()}
}

var _ = Describe("Hardening (issue 15)", func() {
	DescribeTable("a search whose offset + limit overflows is a 400",
		func(run func(string) response) {
			expectRefused(run(`{"offset": 9223372036854775807, "limit": 10}`), http.StatusBadRequest, "offset + limit must be at most 1000")
		},
		Entry("with a key", keyedSearch),
		Entry("from a browser", publicCall),
	)

	DescribeTable("a filter value of the wrong type for its field is a 400, with a key or from a browser",
		func(run func(string) response, filter, want string) {
			expectRefused(run(`{"q": "", "filters": `+filter+`}`), http.StatusBadRequest, want)
		},
		Entry("a word on a number field", keyedSearch, `{"field": "price", "eq": "abc"}`, `filters.eq: must be a number`),
		Entry("a word among in values of a number field", keyedSearch, `{"field": "price", "in": ["x"]}`, `filters.in[0]: must be a number`),
		Entry("a word on a boolean field", keyedSearch, `{"field": "inStock", "eq": "maybe"}`, `filters.eq: must be true or false`),
		Entry("a word on a number field, from a browser", publicCall, `{"field": "price", "eq": "abc"}`, `filters.eq: must be a number`),
	)

	It("refuses invalid UTF-8 in a body with 400 instead of replacing it", func() {
		ci := newCatalogIndex()
		r := call(0, "POST", ci.base+"/record-writes", ci.writeKey,
			[]byte("{\"operation\": \"upsert\", \"objectID\": \"a\xff\", \"record\": {\"objectID\": \"a\xff\"}, \"expectedVersion\": 0}"))
		expectRefused(r, http.StatusBadRequest, "invalid UTF-8")
		expectRefused(keyedSearch("{\"q\": \"adv\xff\"}"), http.StatusBadRequest, "invalid UTF-8")
		Expect(call(0, "GET", ci.base+"/indexing", ci.writeKey, nil).receipt().AcceptedRevision).To(BeZero())
	})

	It("refuses a forced filter the index cannot apply, and public search keeps working", func() {
		code, body := put("/api/teams/acme/indexes/catalog/public-access/policy", keys["catalog"],
			`{"policy": {"forcedFilters": [{"field": "price", "range": {"gte": "abc"}}, {"field": "price", "range": {"lt": "1e400"}}]}}`)
		Expect(code).To(Equal(http.StatusBadRequest), body)
		Expect(body).To(ContainSubstring(`forcedFilters[0].range.gte: \"abc\" must be a finite number`))
		Expect(body).To(ContainSubstring(`forcedFilters[1].range.lt: \"1e400\" must be a finite number`))
		Expect(publicCall(`{}`).status).To(Equal(http.StatusOK))
	})

	DescribeTable("a null body is a 400, not an empty request",
		func(method, path string) {
			rec := send(server, method, path, keys["catalog"], `null`, map[string]string{"Origin": allowedOrigin})
			Expect(rec.Code).To(Equal(http.StatusBadRequest), rec.Body.String())
			Expect(rec.Body.String()).To(ContainSubstring("expected a JSON object"))
		},
		Entry("search", http.MethodPost, "/api/teams/acme/indexes/catalog/search"),
		Entry("public search", http.MethodPost, publicPath),
		Entry("PUT /config", http.MethodPut, "/api/teams/acme/indexes/catalog/config"),
	)

	It("refuses an empty idempotency key and field names in another case", func() {
		ci := newCatalogIndex()
		r := call(0, "POST", ci.base+"/record-writes", ci.writeKey, map[string]any{"operation": "delete", "objectID": "a", "expectedVersion": 0, "idempotencyKey": ""})
		expectRefused(r, http.StatusBadRequest, "idempotencyKey must be 1 to 64 characters")
		r = call(0, "POST", ci.base+"/record-writes", ci.writeKey, map[string]any{"Operation": "delete", "ObjectID": "a", "expectedVersion": 0})
		expectRefused(r, http.StatusBadRequest, `unknown field "ObjectID"`)
		Expect(call(0, "GET", ci.base+"/indexing", ci.writeKey, nil).receipt().AcceptedRevision).To(BeZero())
	})

	It("repeats the first receipt for the same request with its members in another order", func() {
		ci := newCatalogIndex()
		first := call(0, "POST", ci.base+"/record-writes", ci.writeKey,
			[]byte(`{"operation": "upsert", "objectID": "a", "record": {"objectID": "a", "n": 1, "m": "x"}, "expectedVersion": 0, "idempotencyKey": "k1"}`))
		Expect(first.status).To(Equal(http.StatusAccepted), string(first.body))
		again := call(1, "POST", ci.base+"/record-writes", ci.writeKey,
			[]byte(`{"idempotencyKey": "k1", "expectedVersion": 0, "record": {"m": "x", "n": 1, "objectID": "a"}, "objectID": "a", "operation": "upsert"}`))
		Expect(again.status).To(Equal(http.StatusAccepted), string(again.body))
		Expect(again.receipt()).To(Equal(first.receipt()))
	})

	It("refuses a public search body larger than a search request can be, with 413", func() {
		// fasthttp refuses the body while reading it, which app.Test reports as its own
		// error: this needs a listening replica.
		big := `{"q": "` + strings.Repeat("a", apiserver.PublicBodyLimit) + `"}`
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, replicas[0]+publicPath, strings.NewReader(big))
		Expect(err).NotTo(HaveOccurred())
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", allowedOrigin)
		status, body := sendRaw(req)
		expectRefused(response{status: status, body: body}, http.StatusRequestEntityTooLarge, "request body too large")
	})

	DescribeTable("answers a body far over its limit, and the client reads the answer (issue 20)",
		func(path, key string, size int, status int, message string) {
			body := `{"q": "` + strings.Repeat("a", size) + `"}`
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, replicas[0]+path, strings.NewReader(body))
			Expect(err).NotTo(HaveOccurred())
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Origin", allowedOrigin)
			if key != "" {
				req.Header.Set("Authorization", "Bearer "+key)
			}
			code, answer := sendRaw(req)
			expectRefused(response{status: code, body: answer}, status, message)
		},
		Entry("a public search of 5 MB", publicPath, "", 5_000_000, http.StatusRequestEntityTooLarge, "request body too large"),
		Entry("a public search of 20 MB", publicPath, "", 20_000_000, http.StatusRequestEntityTooLarge, "request body too large"),
		Entry("a search of 20 MB without a valid key", "/api/teams/acme/indexes/catalog/search",
			"aisle_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", 20_000_000, http.StatusUnauthorized, "invalid API key"),
	)

	It("closes a connection whose body never arrives, after the read timeout", func() {
		s := apiserver.New(apiserver.Config{ReadTimeout: time.Second, Search: searchSvc}, registry)
		conn, err := net.Dial("tcp", strings.TrimPrefix(listen(s), "http://"))
		Expect(err).NotTo(HaveOccurred())
		defer conn.Close()
		_, err = conn.Write([]byte("POST " + publicPath + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"q\":"))
		Expect(err).NotTo(HaveOccurred())
		// The client's own deadline only keeps a failing spec from hanging.
		Expect(conn.SetReadDeadline(time.Now().Add(time.Minute))).To(Succeed())
		_, err = bufio.NewReader(conn).ReadString('\n')
		var ne net.Error
		if err != nil && errors.As(err, &ne) {
			Expect(ne.Timeout()).To(BeFalse(), "the server held the connection")
		}
	})
})

// manyFields is a record with n number fields besides its objectID.
func manyFields(id string, n int) map[string]any {
	r := map[string]any{"objectID": id}
	for i := range n {
		r[fmt.Sprintf("f%d", i)] = i
	}
	return r
}

var _ = Describe("Field limits and refusals in the contract's words (issue 15)", func() {
	It("refuses a record that takes the index past 1,000 fields with a 400 naming the limit, and writes nothing", func() {
		ci := newCatalogIndex()
		r := call(0, "POST", ci.base+"/records", ci.writeKey, recordsBody([]map[string]any{manyFields("wide", 1200)}))
		expectRefused(r, http.StatusBadRequest, "records[0]: the index would hold more than 1000 distinct field paths")
		Expect(string(r.body)).NotTo(ContainSubstring("exception"))
		Expect(call(0, "GET", ci.base+"/records/wide", ci.writeKey, nil).status).To(Equal(http.StatusOK))
		Expect(searchCount(ci)).To(BeZero())
	})
})
