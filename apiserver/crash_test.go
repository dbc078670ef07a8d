package apiserver_test

import (
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/aislehq/aisle/test/aislebin"
	"github.com/aislehq/aisle/test/esbackend"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var aisleBin string

// buildAisle builds the aisle binary once per suite (AfterSuite removes it).
func buildAisle() string {
	if aisleBin == "" {
		bin, err := aislebin.Build()
		Expect(err).NotTo(HaveOccurred())
		aisleBin = bin
	}
	return aisleBin
}

// startAisleAPIServer runs `aisle apiserver` as a process on the search backend at
// backend, with extra flags.
func startAisleAPIServer(backend string, flags ...string) (*exec.Cmd, string) {
	bin := buildAisle()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	addr := ln.Addr().String()
	Expect(ln.Close()).To(Succeed())
	cmd := exec.Command(bin, append([]string{"apiserver", "--kubeconfig", kubeconf, "--es-url", backend, "--listen", addr}, flags...)...)
	cmd.Stdout, cmd.Stderr = GinkgoWriter, GinkgoWriter
	Expect(cmd.Start()).To(Succeed())
	DeferCleanup(func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() })
	Eventually(func() int {
		r, err := http.Get("http://" + addr + "/readyz")
		if err != nil {
			return 0
		}
		r.Body.Close()
		return r.StatusCode
	}).Should(Equal(http.StatusOK))
	return cmd, "http://" + addr
}

var _ = Describe("Crash safety", func() {
	It("never shows readers a partial catalog when an apiserver dies in the middle of PUT /records, and cleans up the leftover index", func() {
		ci := newCatalogIndex()
		Expect(call(0, "PUT", ci.base+"/records", ci.writeKey, recordsBody(records("old", 100))).status).To(Equal(http.StatusAccepted))
		gate, err := esbackend.NewGate(esURL)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(gate.Close)
		cmd, base := startAisleAPIServer(gate.URL())
		Eventually(func() int {
			r, err := httpClient.Do(authed("GET", base+ci.base+"/indexing", ci.writeKey))
			if err != nil {
				return 0
			}
			r.Body.Close()
			return r.StatusCode
		}).Should(Equal(http.StatusOK))

		var bad atomic.Value
		stop := make(chan struct{})
		readerDone := make(chan struct{})
		go func() { // a reader counting what search sees behind the alias
			defer GinkgoRecover()
			defer close(readerDone)
			for {
				select {
				case <-stop:
					return
				default:
				}
				if n := searchCount(ci); n != 100 && n != 20000 {
					bad.Store(fmt.Sprintf("a reader saw %d records", n))
				}
			}
		}()
		// Kill in the middle of the fill, whatever the machine's speed: the gate holds its
		// _bulk writes (of catalog.FillBatch records, one at a time) after the fifth.
		physical := "/" + strings.TrimSuffix(ci.names.PhysicalPattern(), "*")
		held := gate.HoldAfter(5, func(r *http.Request) bool {
			return strings.HasPrefix(r.URL.Path, physical) && strings.HasSuffix(r.URL.Path, "/_bulk")
		})
		go func() {
			r, err := httpClient.Do(jsonReq("PUT", base+ci.base+"/records", ci.writeKey, recordsBody(records("new", 20000))))
			if err == nil {
				r.Body.Close()
			}
		}()
		Eventually(held, time.Minute).Should(BeClosed(), "the fill reached the gate")
		Expect(physicalIndices(ci)).To(HaveLen(2), "the fill's index exists beside the catalog's")
		Expect(cmd.Process.Signal(syscall.SIGKILL)).To(Succeed())
		_, _ = cmd.Process.Wait()
		gate.Release()
		Eventually(func() []string { return physicalIndices(ci) }, 90*time.Second, 250*time.Millisecond).Should(HaveLen(1))
		close(stop)
		<-readerDone
		Expect(bad.Load()).To(BeNil())
		Expect(searchCount(ci)).To(BeNumerically("==", 100))
		// Writes go on after the crash.
		Expect(call(1, "POST", ci.base+"/records", ci.writeKey, recordsBody(records("after", 1))).status).To(Equal(http.StatusAccepted))
	})
})

func authed(method, url, key string) *http.Request {
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Authorization", "Bearer "+key)
	return req
}

func jsonReq(method, url, key string, body any) *http.Request {
	raw, err := jsonMarshal(body)
	Expect(err).NotTo(HaveOccurred())
	req, err := http.NewRequestWithContext(ctx, method, url, bytesReader(raw))
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	return req
}
