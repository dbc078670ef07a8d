package engine_test

import (
	"bufio"
	"errors"
	"net"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/engine"
)

var _ = Describe("The engine's listener", func() {
	It("closes a connection whose body never arrives, after the read timeout (issue 15, item 6)", func() {
		s, err := engine.Start(ctx, engine.Config{DataDir: GinkgoT().TempDir(), ReadTimeout: time.Second})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL(), "http://"))
		Expect(err).NotTo(HaveOccurred())
		defer conn.Close()
		_, err = conn.Write([]byte("POST /_bulk HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\nContent-Length: 100\r\n\r\n{\"index\""))
		Expect(err).NotTo(HaveOccurred())
		// The client's own deadline only keeps a failing spec from hanging.
		Expect(conn.SetReadDeadline(time.Now().Add(20 * time.Second))).To(Succeed())
		_, err = bufio.NewReader(conn).ReadString('\n')
		var ne net.Error
		if err != nil && errors.As(err, &ne) {
			Expect(ne.Timeout()).To(BeFalse(), "the engine held the connection")
		}
	})

	It("sets a read, write and idle timeout and a header limit by default", func() {
		cfg := engine.Config{}.WithDefaults()
		Expect(cfg.ReadTimeout).To(BeNumerically(">", 0))
		Expect(cfg.WriteTimeout).To(BeNumerically(">", 0))
		Expect(cfg.IdleTimeout).To(BeNumerically(">", 0))
		Expect(cfg.MaxHeaderBytes).To(BeNumerically(">", 0))
	})
})
