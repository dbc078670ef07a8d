package apiserver_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// endpoint is one route of the contract, with a key that may call it.
type endpoint struct {
	method, path string
	allowedRole  string // a key with the needed scope
	deniedRole   string // a key of the same workspace without it
}

var endpoints = []endpoint{
	{http.MethodGet, "/config", "search", "events"},
	{http.MethodGet, "/public-access", "write", "search"},
	{http.MethodPost, "/records", "write", "search"},
	{http.MethodPut, "/records", "write", "search"},
	{http.MethodGet, "/records/sku-1", "search", "events"},
	{http.MethodDelete, "/records/sku-1", "write", "search"},
	{http.MethodPost, "/record-writes", "write", "search"},
	{http.MethodGet, "/indexing", "search", "events"},
	{http.MethodPost, "/staged-replacements/s1", "write", "search"},
	{http.MethodPost, "/staged-replacements/s1/batches/b1", "write", "search"},
	{http.MethodPost, "/staged-replacements/s1/commit", "write", "search"},
	{http.MethodDelete, "/staged-replacements/s1", "write", "search"},
	{http.MethodPost, "/search", "search", "write"},
	{http.MethodGet, "/fields", "search", "write"},
	{http.MethodPut, "/config", "write", "search"},
	{http.MethodPut, "/public-access/policy", "write", "search"},
	{http.MethodDelete, "/public-access/policy", "write", "search"},
	{http.MethodGet, "/lists/together/sku-1", "search", "write"},
	{http.MethodGet, "/lists/similar/sku-1", "search", "write"},
	{http.MethodGet, "/lists/goesWith/sku-1", "search", "write"},
	{http.MethodGet, "/lists/trending", "search", "write"},
	{http.MethodGet, "/events/stats", "search", "events"},
	{http.MethodPost, "/events", "events", "search"},
	{http.MethodPost, "/past-orders", "events", "search"},
}

// authCase is one way of presenting (or not) a key, and the answer it must get.
type authCase struct {
	name    string
	header  func(e endpoint) string
	path    func(e endpoint) string
	status  int
	message string
}

func ownIndex(e endpoint) string { return "/api/teams/acme/indexes/products" + e.path }
func bearer(role string) func(endpoint) string {
	return func(endpoint) string { return "Bearer " + keys[role] }
}

var authCases = []authCase{
	{"no Authorization header", func(endpoint) string { return "" }, ownIndex,
		401, "missing API key: send Authorization: Bearer <API_KEY>"},
	{"a header that is not Bearer", func(endpoint) string { return "Basic dXNlcjpwYXNz" }, ownIndex,
		401, "invalid API key: the Authorization header must be Bearer <API_KEY>"},
	{"an unknown key", func(endpoint) string {
		return "Bearer aisle_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
	}, ownIndex, 401, "invalid API key"},
	{"a key that is not shaped like one", func(endpoint) string { return "Bearer hunter2" }, ownIndex,
		401, "invalid API key"},
	{"an expired key", bearer("expired"), ownIndex, 401, "API key expired"},
	{"a rotated-out key after its overlap", bearer("rotated-out"), ownIndex, 401, "API key revoked"},
	{"a key without the needed scope", func(e endpoint) string { return "Bearer " + keys[e.deniedRole] }, ownIndex,
		403, "API key lacks the scope this endpoint needs"},
	{"a key not limited to the index", func(e endpoint) string { return "Bearer " + keys[e.allowedRole] },
		func(e endpoint) string { return "/api/teams/acme/indexes/staff-only" + e.path },
		403, "API key does not grant access to this index"},
	{"a key of another workspace", bearer("globex"), ownIndex,
		403, "API key does not grant access to this workspace"},
	{"a key of another workspace on a missing index", bearer("globex"),
		func(e endpoint) string { return "/api/teams/acme/indexes/nothing-here" + e.path },
		403, "API key does not grant access to this workspace"},
	{"a key of another workspace on a missing workspace", bearer("globex"),
		func(e endpoint) string { return "/api/teams/initech/indexes/products" + e.path },
		403, "API key does not grant access to this workspace"},
	{"a key of the workspace on a missing index", func(e endpoint) string { return "Bearer " + keys[e.allowedRole] },
		func(e endpoint) string { return "/api/teams/acme/indexes/nothing-here" + e.path },
		404, "index not found"},
	// Secured keys (issue 22): derived from the acme search key, they search and do
	// nothing else; a key that does not hold is 401 wherever it is sent.
	{"a secured key on an endpoint that takes none", bearer("secured"), ownIndex,
		403, "a secured API key only searches: this endpoint needs the key it was derived from"},
	{"an expired secured key", bearer("secured-expired"), ownIndex, 401, "API key expired"},
	{"a secured key tampered with", bearer("secured-tampered"), ownIndex,
		401, "invalid secured API key: the signature does not match the payload"},
	{"a secured key whose parent is unknown", bearer("secured-orphan"), ownIndex,
		401, "invalid secured API key: the key it was derived from is unknown: deleted, or rotated away"},
	{"a secured key over 8 KiB", func(endpoint) string { return "Bearer aisle_sk_" + strings.Repeat("e", 8192) }, ownIndex,
		401, "invalid secured API key: longer than 8192 bytes"},
}

// skipCase leaves a case out where it does not apply: a secured key is taken by the
// endpoints that apply its restrictions (secured_test.go covers those).
var skipCase = map[string]func(endpoint) bool{
	"a secured key on an endpoint that takes none": func(e endpoint) bool { return e.method == http.MethodPost && e.path == "/search" },
}

func authEntries() []TableEntry {
	var entries []TableEntry
	for _, e := range endpoints {
		for _, c := range authCases {
			if skip := skipCase[c.name]; skip != nil && skip(e) {
				continue
			}
			entries = append(entries, Entry(fmt.Sprintf("%s %s with %s", e.method, e.path, c.name), e, c))
		}
	}
	return entries
}

var _ = Describe("Authentication and authorization", func() {
	DescribeTable("refuse every request that may not reach the endpoint, with the exact status and error",
		func(e endpoint, c authCase) {
			req := httptest.NewRequest(e.method, c.path(e), nil)
			if h := c.header(e); h != "" {
				req.Header.Set("Authorization", h)
			}
			rec := do(req)
			Expect(rec.Code).To(Equal(c.status), "body: %s", rec.Body.String())
			Expect(rec.Body.String()).To(MatchJSON(errorBody(c.message)))
			Expect(rec.Header().Get("Content-Type")).To(HavePrefix("application/json"))
		},
		authEntries(),
	)

	DescribeTable("refuse a request from its headers, without waiting for its body (issue 20)",
		func(e endpoint, c authCase) {
			r := headersOnly(e.method, c.path(e), c.header(e), 100<<20)
			Expect(r.status).To(Equal(c.status), "body: %s", r.body)
			Expect(string(r.body)).To(MatchJSON(errorBody(c.message)))
		},
		authEntries(),
	)

	It("answers a secured key with a body over a browser's limit with 413, without waiting for the body (issue 22)", func() {
		r := headersOnly(http.MethodPost, "/api/teams/acme/indexes/products/search", "Bearer "+keys["secured"], 65<<10)
		Expect(r.status).To(Equal(http.StatusRequestEntityTooLarge), "body: %s", r.body)
		Expect(string(r.body)).To(MatchJSON(errorBody("request body too large")))
	})

	It("answers a key the endpoint accepts with a body over the limit with 413, without waiting for the body", func() {
		r := headersOnly(http.MethodPut, "/api/teams/acme/indexes/products/records", "Bearer "+keys["write"], 200<<20)
		Expect(r.status).To(Equal(http.StatusRequestEntityTooLarge), "body: %s", r.body)
		Expect(string(r.body)).To(MatchJSON(errorBody("request body too large")))
	})

	DescribeTable("let a key with the scope and index through",
		func(path, role string) {
			rec := get("/api/teams/acme/indexes/products"+path, keys[role])
			Expect(rec.Code).To(Equal(http.StatusOK), "body: %s", rec.Body.String())
		},
		Entry("GET /config with a search key", "/config", "search"),
		Entry("GET /config with a write key (either)", "/config", "write"),
		Entry("GET /public-access with a write key", "/public-access", "write"),
		Entry("GET /config with a previous key still in its overlap", "/config", "in-overlap"),
		Entry("GET /indexing with a search key (either)", "/indexing", "search"),
		Entry("GET /indexing with a write key (either)", "/indexing", "write"),
		Entry("GET /records/{objectID} with a search key (either)", "/records/sku-1", "search"),
		Entry("GET /records/{objectID} with a write key (either)", "/records/sku-1", "write"),
		Entry("GET /lists/together/{objectID} with a search key", "/lists/together/sku-1", "search"),
		Entry("GET /lists/similar/{objectID} with a search key", "/lists/similar/sku-1", "search"),
		Entry("GET /lists/goesWith/{objectID} with a search key", "/lists/goesWith/sku-1", "search"),
		Entry("GET /lists/trending with a search key", "/lists/trending", "search"),
		Entry("GET /events/stats with a search key", "/events/stats", "search"),
		Entry("GET /events/stats with a write key", "/events/stats", "write"),
	)
})

// headersOnly sends a request's headers to a listening replica, announcing a body of
// length bytes that it never sends, and returns the answer: an answer that arrives was
// given from the headers alone. The client's deadline only keeps a failing spec from
// hanging (the server would wait for the body for its read timeout).
func headersOnly(method, path, authorization string, length int) response {
	GinkgoHelper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(replicas[0], "http://"))
	Expect(err).NotTo(HaveOccurred())
	defer conn.Close()
	head := fmt.Sprintf("%s %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n", method, path, length)
	if authorization != "" {
		head += "Authorization: " + authorization + "\r\n"
	}
	_, err = conn.Write([]byte(head + "\r\n"))
	Expect(err).NotTo(HaveOccurred())
	Expect(conn.SetReadDeadline(time.Now().Add(time.Minute))).To(Succeed())
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	Expect(err).NotTo(HaveOccurred(), "no answer while the body had not been sent")
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	Expect(err).NotTo(HaveOccurred())
	return response{status: res.StatusCode, body: body, header: res.Header}
}
