package transfer

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/transfer"
)

// memoryPeak samples this process's heap in use while a round trip runs: the API server
// and the engine serve from it (kube-apiserver and etcd are processes of their own).
type memoryPeak struct {
	mu   sync.Mutex
	peak uint64
	stop chan struct{}
	done chan struct{}
}

func sampleHeap() *memoryPeak {
	m := &memoryPeak{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(m.done)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			m.mu.Lock()
			m.peak = max(m.peak, ms.HeapInuse)
			m.mu.Unlock()
			select {
			case <-m.stop:
				return
			case <-t.C:
			}
		}
	}()
	return m
}

// SoFar is the peak up to now.
func (m *memoryPeak) SoFar() uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.peak
}

func (m *memoryPeak) Stop() uint64 {
	close(m.stop)
	<-m.done
	return m.peak
}

// procStatus is a field of /proc/self/status (VmRSS, VmHWM) in KiB.
func procStatus(field string) string {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return "?"
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), field+":"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}

var _ = Describe("A round trip of 100,000 records", func() {
	It("exports and imports them identical, the server's heap flat (AISLE_BENCH=1)", func(ctx SpecContext) {
		if os.Getenv("AISLE_BENCH") == "" {
			Skip("a benchmark: AISLE_BENCH=1 runs it")
		}
		const n = 100_000
		// "cli" is this spec's (and the binary's) index: the catalog starts empty either way.
		Expect(api(ctx, http.MethodPost, "cli", "/records/delete", map[string]any{"all": true}, nil)).To(Equal(http.StatusAccepted))
		recs := catalog(n)
		for start := 0; start < n; start += transfer.PageSize {
			body := map[string]any{"records": recs[start:min(start+transfer.PageSize, n)]}
			Expect(api(ctx, http.MethodPost, "cli", "/records", body, nil)).To(Equal(http.StatusAccepted))
		}
		recs = nil
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)

		dir := GinkgoT().TempDir()
		exported := filepath.Join(dir, "all.ndjson")
		// Flat memory: the peak over the whole transfer is the peak of its first tenth,
		// not ten times its growth.
		var exportTenth, importTenth uint64
		heap := sampleHeap()
		start := time.Now()
		f, err := os.Create(exported)
		Expect(err).NotTo(HaveOccurred())
		c := client(running.Env.BaseURL, "cli")
		got, err := c.Export(ctx, f, func(done int) {
			if done == n/10 {
				exportTenth = heap.SoFar()
			}
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(f.Close()).To(Succeed())
		Expect(got).To(Equal(n))
		exportTook := time.Since(start)
		exportPeak := heap.Stop()
		want, err := os.ReadFile(exported)
		Expect(err).NotTo(HaveOccurred())

		// The same catalog as one NDJSON stream (GET /records, Accept: application/x-ndjson):
		// the server holds one page at a time, so its heap stays as flat as the paged export's.
		heap = sampleHeap()
		start = time.Now()
		streamed, streamTenth := streamExport(ctx, filepath.Join(dir, "stream.ndjson"), n, heap)
		streamTook := time.Since(start)
		streamPeak := heap.Stop()
		Expect(streamed).To(Equal(want))
		// A stream buffered whole would grow the heap by at least its own size after its
		// first tenth; one page at a time grows it by the collector's swings only.
		Expect(streamPeak).To(BeNumerically("<", streamTenth+uint64(len(want))), "stream peak %d MiB, %d MiB by its first tenth", streamPeak>>20, streamTenth>>20)
		heap = sampleHeap()

		Expect(api(ctx, http.MethodPost, "cli", "/records/delete", map[string]any{"all": true}, nil)).To(Equal(http.StatusAccepted))
		Expect(recordCount(ctx, "cli")).To(BeZero())
		start = time.Now()
		res, err := c.ImportFile(ctx, transfer.FileImport{Path: exported, Options: transfer.ImportOptions{Acked: func(a transfer.Ack) error {
			if a.Records == n/10 {
				importTenth = heap.SoFar()
			}
			return nil
		}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Records).To(Equal(n))
		importTook := time.Since(start)
		importPeak := heap.Stop()

		again := filepath.Join(dir, "again.ndjson")
		f, err = os.Create(again)
		Expect(err).NotTo(HaveOccurred())
		_, err = c.Export(ctx, f, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(f.Close()).To(Succeed())
		have, err := os.ReadFile(again)
		Expect(err).NotTo(HaveOccurred())
		Expect(have).To(Equal(want))

		report := fmt.Sprintf("100,000 records (%d MiB of NDJSON): export %s, stream %s, import %s; heap in use %d MiB before; "+
			"export peak %d MiB (%d MiB by its first tenth), stream peak %d MiB (%d MiB by its first tenth), "+
			"import peak %d MiB (%d MiB by its first tenth); process VmRSS %s, VmHWM %s",
			len(want)>>20, exportTook.Round(time.Millisecond), streamTook.Round(time.Millisecond), importTook.Round(time.Millisecond),
			before.HeapInuse>>20, exportPeak>>20, exportTenth>>20, streamPeak>>20, streamTenth>>20,
			importPeak>>20, importTenth>>20, procStatus("VmRSS"), procStatus("VmHWM"))
		AddReportEntry("memory", report)
		fmt.Fprintln(GinkgoWriter, report)
	}, SpecTimeout(20*time.Minute))
})

// streamExport reads the "cli" index's records as one NDJSON stream into path, a line at
// a time, and returns the stream and the heap's peak by its first tenth of n records.
func streamExport(ctx context.Context, path string, n int, heap *memoryPeak) ([]byte, uint64) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, running.Env.BaseURL+"/api/teams/"+workspace+"/indexes/cli/records", nil)
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Accept", "application/x-ndjson")
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	Expect(resp.StatusCode).To(Equal(http.StatusOK))
	f, err := os.Create(path)
	Expect(err).NotTo(HaveOccurred())
	w := bufio.NewWriter(f)
	lines := bufio.NewScanner(resp.Body)
	lines.Buffer(make([]byte, 0, 1<<16), 1<<20)
	var tenth uint64
	count := 0
	for lines.Scan() {
		_, _ = w.Write(lines.Bytes())
		_ = w.WriteByte('\n')
		if count++; count == n/10 {
			tenth = heap.SoFar()
		}
	}
	Expect(lines.Err()).NotTo(HaveOccurred())
	Expect(w.Flush()).To(Succeed())
	Expect(f.Close()).To(Succeed())
	Expect(count).To(Equal(n))
	data, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	return data, tenth
}
