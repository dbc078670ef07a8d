package transfer

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/feed"
	"github.com/aislehq/aisle/internal/feedsample"
	"github.com/aislehq/aisle/internal/transfer"
)

func writeFeed(path string, items []feedsample.Item, write func(*bytes.Buffer, []feedsample.Item) error) {
	var buf bytes.Buffer
	Expect(write(&buf, items)).To(Succeed())
	Expect(os.WriteFile(path, buf.Bytes(), 0o644)).To(Succeed())
}

func rss(b *bytes.Buffer, items []feedsample.Item) error { return feedsample.WriteRSS(b, items) }
func tsv(b *bytes.Buffer, items []feedsample.Item) error { return feedsample.WriteTSV(b, items) }

func readRecord(ctx context.Context, index, id string) map[string]any {
	var read struct{ Record map[string]any }
	Expect(api(ctx, http.MethodGet, index, "/records/"+id, nil, &read)).To(Equal(http.StatusOK))
	return read.Record
}

var _ = Describe("A Google Merchant Center feed import", Ordered, func() {
	items := feedsample.Items(1200, 11)
	var kept, gone []feedsample.Item
	for i, it := range items {
		if i%12 == 5 {
			gone = append(gone, it)
		} else {
			kept = append(kept, it)
		}
	}

	It("takes the suggested settings", func(ctx SpecContext) {
		data, err := os.ReadFile(filepath.Join(running.Root, "docs", "feeds", "settings.json"))
		Expect(err).NotTo(HaveOccurred())
		var settings map[string]any
		Expect(json.Unmarshal(data, &settings)).To(Succeed())
		var answer map[string]any
		Expect(api(ctx, http.MethodPut, "feed", "/config", settings, &answer)).To(Equal(http.StatusOK), "%v", answer)
		// New filterable and facet fields rebuild the index; distinct groups once it is done.
		Eventually(func() any {
			var cfg struct{ Rebuild map[string]any }
			api(ctx, http.MethodGet, "feed", "/config", nil, &cfg)
			return cfg.Rebuild["state"]
		}).WithTimeout(2 * time.Minute).WithPolling(200 * time.Millisecond).Should(Or(BeNil(), Equal("Succeeded")))
	})

	It("makes a feed of 1,200 products the index's catalog, fields mapped", func(ctx SpecContext) {
		path := filepath.Join(GinkgoT().TempDir(), "products.xml")
		writeFeed(path, items, rss)
		res, err := client(running.Env.BaseURL, "feed").ImportFeedFile(ctx, path, transfer.ImportOptions{}, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Records).To(Equal(1200))
		Expect(res.Skipped).To(BeZero())
		Expect(res.Receipt.RecordCount).To(BeEquivalentTo(1200))
		Expect(recordCount(ctx, "feed")).To(BeEquivalentTo(1200))

		it := items[0]
		rec := readRecord(ctx, "feed", it.ID)
		Expect(rec).To(HaveKeyWithValue("title", it.Title))
		Expect(rec).To(HaveKeyWithValue("currency", "EUR"))
		Expect(rec).To(HaveKeyWithValue("itemGroupId", it.ItemGroupID))
		Expect(rec["price"]).To(BeNumerically(">", 0))
		Expect(rec["productType"]).To(HaveKeyWithValue("lvl0", strings.Split(it.ProductType, " > ")[0]))

		By("grouping variants by itemGroupId, as the suggested settings' distinct says")
		groups := map[string]bool{}
		for _, it := range items {
			groups[it.ItemGroupID] = true
		}
		// A search knows a field once the replica's view of the index's fields has it.
		Eventually(func() int {
			var found struct{ Total int }
			Expect(api(ctx, http.MethodPost, "feed", "/search", map[string]any{"q": "", "limit": 1}, &found)).To(Equal(http.StatusOK))
			return found.Total
		}).WithTimeout(time.Minute).WithPolling(250 * time.Millisecond).Should(Equal(len(groups)))

		By("counting the product type's top level as a hierarchical facet")
		tops := map[string]int{}
		for _, it := range items {
			tops[strings.Split(it.ProductType, " > ")[0]]++
		}
		var faceted struct {
			Facets map[string][]struct {
				Value string
				Count int
			}
		}
		Expect(api(ctx, http.MethodPost, "feed", "/search", map[string]any{"q": "", "limit": 1, "distinct": false,
			"facets": []string{"productType.lvl0"}}, &faceted)).To(Equal(http.StatusOK))
		counted := map[string]int{}
		for _, v := range faceted.Facets["productType.lvl0"] {
			counted[v.Value] = v.Count
		}
		Expect(counted).To(Equal(tops))
	})

	It("re-imported without some products removes them in one switch, and names a malformed line", func(ctx SpecContext) {
		var buf bytes.Buffer
		Expect(tsv(&buf, kept)).To(Succeed())
		lines := strings.SplitAfter(buf.String(), "\n")
		// Line 5 of the file: a product whose price is no price.
		bad := "bad-1\tBroken\t\t\t\tfree\t" + strings.Repeat("\t", 12) + "\n"
		feedText := strings.Join(lines[:4], "") + bad + strings.Join(lines[4:], "")
		path := filepath.Join(GinkgoT().TempDir(), "products.txt")
		Expect(os.WriteFile(path, []byte(feedText), 0o644)).To(Succeed())

		var skipped []string
		oldDuringUpload := []int64{}
		opts := transfer.ImportOptions{
			BatchSize: 400,
			Skipped:   func(e *transfer.LineError) { skipped = append(skipped, e.Error()) },
			Acked: func(transfer.Ack) error {
				oldDuringUpload = append(oldDuringUpload, recordCount(ctx, "feed"))
				return nil
			},
		}
		res, err := client(running.Env.BaseURL, "feed").ImportFeedFile(ctx, path, opts, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(skipped).To(Equal([]string{`line 5: price: "free" is not an amount and a currency code such as 12.50 EUR`}))
		Expect(res.Records).To(Equal(len(kept)))
		Expect(res.Batches).To(Equal(3))
		Expect(oldDuringUpload).To(Equal([]int64{1200, 1200, 1200}), "the old catalog stays whole until the commit")
		Expect(recordCount(ctx, "feed")).To(BeEquivalentTo(len(kept)))
		for _, it := range gone[:10] {
			var read struct{ Record map[string]any }
			Expect(api(ctx, http.MethodGet, "feed", "/records/"+it.ID, nil, &read)).To(Equal(http.StatusOK))
			Expect(read.Record).To(BeNil(), it.ID)
		}
		Expect(readRecord(ctx, "feed", kept[len(kept)-1].ID)).To(HaveKeyWithValue("objectID", kept[len(kept)-1].ID))
	})

	It("switches nothing in when the server refuses a batch, and aborts its stage", func(ctx SpecContext) {
		refusing := proxy(func(r *http.Request) (int, string) {
			if strings.HasSuffix(r.URL.Path, "/batches/"+transfer.BatchID(2)) {
				return http.StatusBadRequest, ""
			}
			return 0, ""
		})
		var buf bytes.Buffer
		Expect(rss(&buf, feedsample.Items(900, 12))).To(Succeed())
		stageID := transfer.NewStageID(time.Now())
		src := transfer.FeedSource(feed.Open(&buf))
		_, err := client(refusing.URL, "feed").Replace(ctx, src, stageID, transfer.ImportOptions{BatchSize: 300})
		Expect(err).To(MatchError(ContainSubstring("refused by the test's proxy")))
		Expect(recordCount(ctx, "feed")).To(BeEquivalentTo(len(kept)))
		Expect(readRecord(ctx, "feed", kept[0].ID)).To(HaveKeyWithValue("objectID", kept[0].ID))

		By("finding the stage gone: starting its ID again makes a new one")
		var st transfer.StageStatus
		Expect(api(ctx, http.MethodPost, "feed", "/staged-replacements/"+stageID, nil, &st)).To(Equal(http.StatusCreated))
		Expect(st.Batches).To(BeZero())
		Expect(api(ctx, http.MethodDelete, "feed", "/staged-replacements/"+stageID, nil, nil)).To(Equal(http.StatusOK))
	})

	It("switches nothing in when another write reached the index meanwhile, and aborts its stage", func(ctx SpecContext) {
		var buf bytes.Buffer
		Expect(rss(&buf, feedsample.Items(500, 13))).To(Succeed())
		stageID := transfer.NewStageID(time.Now())
		written := false
		opts := transfer.ImportOptions{BatchSize: 250, Acked: func(transfer.Ack) error {
			if !written {
				written = true
				body := map[string]any{"records": []any{map[string]any{"objectID": "written-meanwhile", "title": "x"}}}
				Expect(api(ctx, http.MethodPost, "feed", "/records", body, nil)).To(Equal(http.StatusAccepted))
			}
			return nil
		}}
		_, err := client(running.Env.BaseURL, "feed").Replace(ctx, transfer.FeedSource(feed.Open(&buf)), stageID, opts)
		Expect(transfer.StatusOf(err)).To(Equal(http.StatusConflict))
		Expect(recordCount(ctx, "feed")).To(BeEquivalentTo(len(kept) + 1))
		Expect(readRecord(ctx, "feed", kept[0].ID)).To(HaveKeyWithValue("objectID", kept[0].ID))
		var st transfer.StageStatus
		Expect(api(ctx, http.MethodPost, "feed", "/staged-replacements/"+stageID, nil, &st)).To(Equal(http.StatusCreated))
		Expect(api(ctx, http.MethodDelete, "feed", "/staged-replacements/"+stageID, nil, nil)).To(Equal(http.StatusOK))
	})

	It("aborts its stage when it is interrupted, as Ctrl-C does", func(ctx SpecContext) {
		var buf bytes.Buffer
		Expect(rss(&buf, feedsample.Items(500, 14))).To(Succeed())
		stageID := transfer.NewStageID(time.Now())
		importCtx, interrupt := context.WithCancel(ctx)
		defer interrupt()
		opts := transfer.ImportOptions{BatchSize: 100, Acked: func(transfer.Ack) error {
			interrupt()
			return nil
		}}
		_, err := client(running.Env.BaseURL, "feed").Replace(importCtx, transfer.FeedSource(feed.Open(&buf)), stageID, opts)
		Expect(err).To(MatchError(context.Canceled))
		Expect(recordCount(ctx, "feed")).To(BeEquivalentTo(len(kept) + 1))
		var st transfer.StageStatus
		Expect(api(ctx, http.MethodPost, "feed", "/staged-replacements/"+stageID, nil, &st)).To(Equal(http.StatusCreated))
		Expect(api(ctx, http.MethodDelete, "feed", "/staged-replacements/"+stageID, nil, nil)).To(Equal(http.StatusOK))
	})
})
