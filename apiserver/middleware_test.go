package apiserver_test

import (
	"bufio"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/apiserver"
)

// sendTo sends req to another server than the suite's.
func sendTo(s *apiserver.Server, req *http.Request) (int, string) {
	resp, err := s.App().Test(req, -1)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	Expect(err).NotTo(HaveOccurred())
	return resp.StatusCode, string(body)
}

var _ = Describe("The HTTP middleware", func() {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))

	It("turns a panic in a handler into a 500 with a JSON error, and keeps serving", func() {
		s := apiserver.New(apiserver.Config{Logger: quiet}, registry)
		s.App().Get("/boom", func(*fiber.Ctx) error { panic("boom") })
		status, body := sendTo(s, httptest.NewRequest(http.MethodGet, "/boom", nil))
		Expect(status).To(Equal(http.StatusInternalServerError))
		Expect(body).To(MatchJSON(errorBody("internal error; retry with backoff")))
		status, _ = sendTo(s, httptest.NewRequest(http.MethodGet, "/healthz", nil))
		Expect(status).To(Equal(http.StatusOK))
	})

	It("refuses a body over the size limit with 413 and a JSON error", func() {
		// fasthttp rejects the body while reading it, before any handler, so this needs a
		// real listener rather than app.Test.
		s := apiserver.New(apiserver.Config{Logger: quiet, BodyLimit: 1024}, registry)
		base := listen(s)
		req, err := http.NewRequest(http.MethodPost, base+"/api/teams/acme/indexes/products/config",
			strings.NewReader(`{"pad":"`+strings.Repeat("x", 4096)+`"}`))
		Expect(err).NotTo(HaveOccurred())
		req.Header.Set("Content-Type", "application/json")
		status, body := sendRaw(req)
		Expect(status).To(Equal(http.StatusRequestEntityTooLarge))
		Expect(string(body)).To(MatchJSON(errorBody("request body too large")))
	})

	It("refuses request headers over the header limit with 431 and a JSON error (issue 15, item 6)", func() {
		s := apiserver.New(apiserver.Config{Logger: quiet}, registry)
		base := listen(s)
		req, err := http.NewRequest(http.MethodGet, base+"/healthz", nil)
		Expect(err).NotTo(HaveOccurred())
		req.Header.Set("X-Pad", strings.Repeat("x", apiserver.DefaultReadBufferSize))
		status, body := sendRaw(req)
		Expect(status).To(Equal(http.StatusRequestHeaderFieldsTooLarge))
		Expect(string(body)).To(MatchJSON(errorBody("request headers too large")))
	})
})

var _ = Describe("A request that cannot be read (issue 15 audit)", func() {
	It("answers a method no route has with 405 and a JSON error", func() {
		req := httptest.NewRequest("PROPFIND", "/api/teams/acme/indexes/catalog/config", nil)
		status, body := sendTo(server, req)
		Expect(status).To(Equal(http.StatusMethodNotAllowed))
		Expect(body).To(MatchJSON(errorBody("method not allowed")))
	})

	It("gets a 400 in the API's words, not the parser's text quoting the request", func() {
		conn, err := net.Dial("tcp", strings.TrimPrefix(replicas[0], "http://"))
		Expect(err).NotTo(HaveOccurred())
		defer conn.Close()
		_, err = conn.Write([]byte("POST /api/teams/acme/indexes/catalog/search HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer secret-key\r\n" +
			"Content-Type: application/json\r\nContent-Length: -1\r\n\r\n{}"))
		Expect(err).NotTo(HaveOccurred())
		Expect(conn.SetReadDeadline(time.Now().Add(10 * time.Second))).To(Succeed())
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		Expect(err).NotTo(HaveOccurred())
		body, err := io.ReadAll(res.Body)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.StatusCode).To(Equal(http.StatusBadRequest))
		Expect(string(body)).To(MatchJSON(errorBody("malformed HTTP request: its request line, headers or body framing cannot be read")))
	})
})

// listen serves s on a loopback port until the spec ends and returns its base URL: what
// fasthttp refuses while reading a request never reaches app.Test's answer.
func listen(s *apiserver.Server) string {
	GinkgoHelper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	go func() { _ = s.Serve(ln) }()
	DeferCleanup(s.App().Shutdown)
	return "http://" + ln.Addr().String()
}

// sendRaw sends req over the network and returns the status and body of the answer.
func sendRaw(req *http.Request) (int, []byte) {
	GinkgoHelper()
	resp, err := httpClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	Expect(err).NotTo(HaveOccurred())
	return resp.StatusCode, body
}
