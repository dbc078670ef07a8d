package transfer

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/transfer"
)

// catalog is n records of every JSON kind the API stores: text with quotes, newlines and
// non-ASCII letters, integers, decimals, booleans, arrays and a nested object.
func catalog(n int) []map[string]any {
	recs := make([]map[string]any, n)
	for i := range recs {
		recs[i] = map[string]any{
			"objectID": fmt.Sprintf("r%05d", i),
			"name":     fmt.Sprintf("Prodüct ☕ %d \"quoted\"\nsecond line", i),
			"price":    float64(i%500) + 0.25,
			"stock":    i % 17,
			"inStock":  i%3 != 0,
			"tags":     []string{"t" + fmt.Sprint(i%7), "all"},
			"dims":     map[string]any{"w": i % 11, "h": 2.5},
		}
	}
	return recs
}

var _ = Describe("Records files", Ordered, func() {
	It("exported and imported into another index give identical records, through refusals, retries and a resumed import", func(ctx SpecContext) {
		recs := catalog(2500)
		for start := 0; start < len(recs); start += transfer.PageSize {
			body := map[string]any{"records": recs[start:min(start+transfer.PageSize, len(recs))]}
			Expect(api(ctx, http.MethodPost, "source", "/records", body, nil)).To(Equal(http.StatusAccepted))
		}
		dir := GinkgoT().TempDir()
		exported := filepath.Join(dir, "source.ndjson")
		f, err := os.Create(exported)
		Expect(err).NotTo(HaveOccurred())
		n, err := client(running.Env.BaseURL, "source").Export(ctx, f, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(f.Close()).To(Succeed())
		Expect(n).To(Equal(2500))

		By("importing through a server that is overloaded for a moment, then refuses the third batch")
		var posts atomic.Int32
		flaky := proxy(func(r *http.Request) (int, string) {
			if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/records") {
				return 0, ""
			}
			switch posts.Add(1) {
			case 1:
				return http.StatusServiceUnavailable, "0"
			case 3:
				return http.StatusTooManyRequests, "0"
			case 5:
				return http.StatusBadRequest, ""
			}
			return 0, ""
		})
		opts := transfer.ImportOptions{BatchSize: 500}
		_, err = client(flaky.URL, "copy").ImportFile(ctx, transfer.FileImport{Path: exported, Options: opts})
		Expect(err).To(MatchError(ContainSubstring("batch of lines 1001 to 1500")))
		Expect(err).To(MatchError(ContainSubstring("refused by the test's proxy")))
		cp, found, err := transfer.LoadCheckpoint(transfer.CheckpointPath(exported))
		Expect(err).NotTo(HaveOccurred())
		Expect(found).To(BeTrue())
		Expect(cp.Line).To(Equal(1000))
		Expect(cp.Records).To(Equal(1000))
		Expect(cp.AcceptedRevision).To(BeNumerically(">", 0))
		Expect(recordCount(ctx, "copy")).To(BeEquivalentTo(1000))

		By("refusing to start over while the checkpoint is there, then resuming after it")
		direct := client(running.Env.BaseURL, "copy")
		_, err = direct.ImportFile(ctx, transfer.FileImport{Path: exported, Options: opts})
		Expect(err).To(MatchError(ContainSubstring("records an earlier import up to line 1000")))
		res, err := direct.ImportFile(ctx, transfer.FileImport{Path: exported, Resume: true, Options: opts})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Records).To(Equal(1500))
		Expect(res.Batches).To(Equal(3))
		Expect(res.Receipt.RecordCount).To(BeEquivalentTo(2500))
		Expect(transfer.CheckpointPath(exported)).NotTo(BeAnExistingFile())

		copied := filepath.Join(dir, "copy.ndjson")
		f, err = os.Create(copied)
		Expect(err).NotTo(HaveOccurred())
		_, err = direct.Export(ctx, f, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(f.Close()).To(Succeed())
		want, err := os.ReadFile(exported)
		Expect(err).NotTo(HaveOccurred())
		got, err := os.ReadFile(copied)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got)).To(Equal(string(want)))

		By("giving the copies versions of their own index")
		var read struct{ Version int64 }
		Expect(api(ctx, http.MethodGet, "copy", "/records/r02499", nil, &read)).To(Equal(http.StatusOK))
		Expect(read.Version).To(Equal(res.Receipt.AcceptedRevision))
	}, SpecTimeout(5*time.Minute))

	It("in CSV import with typed values, a malformed row skipped and named by its line", func(ctx SpecContext) {
		path := filepath.Join(GinkgoT().TempDir(), "catalog.csv")
		Expect(os.WriteFile(path, []byte("objectID,name,price,inStock,tags,sku\n"+
			"csv-1,\"Mug, large\",4.5,true,kitchen|gift,007\n"+
			"csv-2,Plate\n"+
			"csv-3,Bowl,3,false,,A12\n"), 0o644)).To(Succeed())
		var skipped []string
		res, err := client(running.Env.BaseURL, "copy").ImportFile(ctx, transfer.FileImport{Path: path,
			Options: transfer.ImportOptions{Skipped: func(e *transfer.LineError) { skipped = append(skipped, e.Error()) }}})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Records).To(Equal(2))
		Expect(skipped).To(Equal([]string{"line 3: 2 values for 6 columns"}))
		var read struct{ Record map[string]any }
		Expect(api(ctx, http.MethodGet, "copy", "/records/csv-1", nil, &read)).To(Equal(http.StatusOK))
		Expect(read.Record).To(Equal(map[string]any{"objectID": "csv-1", "name": "Mug, large", "price": 4.5,
			"inStock": true, "tags": []any{"kitchen", "gift"}, "sku": "007"}))
	})
})
