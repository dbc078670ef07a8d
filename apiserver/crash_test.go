package apiserver_test

import (
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/aislehq/aisle/test/aislebin"

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

// startAisleAPIServer runs `aisle apiserver` as a process, with extra flags.
func startAisleAPIServer(flags ...string) (*exec.Cmd, string) {
	bin := buildAisle()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	addr := ln.Addr().String()
	Expect(ln.Close()).To(Succeed())
	cmd := exec.Command(bin, append([]string{"apiserver", "--kubeconfig", kubeconf, "--es-url", esURL, "--listen", addr}, flags...)...)
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
		cmd, base := startAisleAPIServer()
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
		go func() {
			r, err := httpClient.Do(jsonReq("PUT", base+ci.base+"/records", ci.writeKey, recordsBody(records("new", 20000))))
			if err == nil {
				r.Body.Close()
			}
		}()
		// Kill once the fill has started: a second physical index exists.
		Eventually(func() int { return len(physicalIndices(ci)) }, time.Minute, 10*time.Millisecond).Should(Equal(2))
		time.Sleep(500 * time.Millisecond)
		Expect(cmd.Process.Signal(syscall.SIGKILL)).To(Succeed())
		_, _ = cmd.Process.Wait()
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
