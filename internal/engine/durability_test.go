package engine_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/engine"
)

// startChild runs this test binary as a bare engine process on dir and returns its URL.
func startChild(dir string) (*exec.Cmd, string) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	Expect(err).NotTo(HaveOccurred())
	cmd.Stderr = GinkgoWriter
	Expect(cmd.Start()).To(Succeed())
	line, err := bufio.NewReader(out).ReadString('\n')
	Expect(err).NotTo(HaveOccurred())
	Expect(line).To(HavePrefix("URL "))
	return cmd, strings.TrimSpace(strings.TrimPrefix(line, "URL "))
}

var _ = Describe("Durability", func() {
	// An acknowledged write survives kill -9: the translog is fsynced before the response.
	It("keeps every acknowledged write after the engine process is killed with SIGKILL", func() {
		dir := GinkgoT().TempDir()
		cmd, url := startChild(dir)
		client := newClient(url)
		idx := "durable"
		_, err := client.Indices.Create(idx).Mappings(&types.TypeMapping{Properties: map[string]types.Property{
			"n": types.NewLongNumberProperty(), "tag": types.NewKeywordProperty()}}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())

		// A bulk, then concurrent single writes and CAS updates, all acknowledged. The bulk
		// is larger than a catch-up batch, so that a restart before any refresh persisted
		// re-indexes it in several.
		b := client.Bulk().Index(idx)
		for i := 0; i < 2500; i++ {
			Expect(b.IndexOp(types.IndexOperation{Id_: ptr("b" + strconv.Itoa(i))}, map[string]any{"n": i, "tag": "bulk"})).To(Succeed())
		}
		res, err := b.Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Errors).To(BeFalse())

		var mu sync.Mutex
		acked := map[string]int64{}
		var wg sync.WaitGroup
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func(w int) {
				defer GinkgoRecover()
				defer wg.Done()
				for i := 0; i < 50; i++ {
					id := fmt.Sprintf("w%d-%d", w, i)
					r, err := client.Index(idx).Id(id).Document(map[string]any{"n": i, "tag": "single"}).Do(ctx)
					Expect(err).NotTo(HaveOccurred())
					mu.Lock()
					acked[id] = r.Version_
					mu.Unlock()
				}
			}(w)
		}
		wg.Wait()
		upd, err := client.Index(idx).Id("b1").IfSeqNo("1").IfPrimaryTerm("1").Document(map[string]any{"n": -1, "tag": "cas"}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(upd.Version_).To(Equal(int64(2)))
		_, err = client.Delete(idx, "b2").Do(ctx)
		Expect(err).NotTo(HaveOccurred())

		Expect(cmd.Process.Signal(syscall.SIGKILL)).To(Succeed())
		_ = cmd.Wait()

		restarted, err := engine.Start(ctx, engine.Config{DataDir: dir})
		Expect(err).NotTo(HaveOccurred())
		defer func() { Expect(restarted.Close()).To(Succeed()) }()
		after := newClient(restarted.URL())
		for id, version := range acked {
			got, err := after.Get(idx, id).Do(ctx)
			Expect(err).NotTo(HaveOccurred())
			Expect(got.Found).To(BeTrue(), id)
			Expect(*got.Version_).To(Equal(version))
		}
		got, err := after.Get(idx, "b1").Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got.Source_)).To(MatchJSON(`{"n":-1,"tag":"cas"}`))
		Expect(*got.SeqNo_).To(Equal(*upd.SeqNo_))
		gone, err := after.Exists(idx, "b2").Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(gone).To(BeFalse())

		// The search index is rebuilt from the translog too, and seq_no continues.
		_, err = after.Indices.Refresh().Index(idx).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		cnt, err := after.Count().Index(idx).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(cnt.Count).To(Equal(int64(2499 + 200)))
		next, err := after.Index(idx).Id("new").Document(map[string]any{"n": 1}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(*next.SeqNo_).To(BeNumerically(">", *upd.SeqNo_))
		m, err := after.Indices.GetMapping().Index(idx).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(m[idx].Mappings.Properties).To(HaveKey("tag"))
	})

	// A clean Close persists a snapshot; reopening restores indices, aliases and settings.
	It("restores indices, aliases and settings after a clean restart", func() {
		dir := GinkgoT().TempDir()
		s1, err := engine.Start(ctx, engine.Config{DataDir: dir})
		Expect(err).NotTo(HaveOccurred())
		c1 := newClient(s1.URL())
		_, err = c1.Indices.Create("keep").Settings(&types.IndexSettings{MaxResultWindow: ptr(50)}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		_, err = c1.Index("keep").Id("1").Document(map[string]any{"a": "b"}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		_, err = c1.Indices.PutAlias("keep", "keep-alias").Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(s1.Close()).To(Succeed())

		s2, err := engine.Start(ctx, engine.Config{DataDir: dir})
		Expect(err).NotTo(HaveOccurred())
		defer func() { Expect(s2.Close()).To(Succeed()) }()
		c2 := newClient(s2.URL())
		res, err := c2.Search().Index("keep-alias").Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Hits.Total.Value).To(Equal(int64(1)))
		_, err = c2.Search().Index("keep").From(45).Size(10).Do(ctx)
		Expect(esError(err).Status).To(Equal(400))
	})
})
