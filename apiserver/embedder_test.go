package apiserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/embedder/embeddertest"
)

// restRecord is record i of the REST embedder's catalog and the text its template makes.
func restRecord(i int, description string) (map[string]any, string) {
	brand := fmt.Sprintf("brand%d", i%5)
	name := fmt.Sprintf("product %d", i)
	rec := map[string]any{"objectID": fmt.Sprintf("p-%d", i), "name": name, "brand": brand, "description": description}
	return rec, fmt.Sprintf("%s by %s. %s", name, brand, description)
}

var restWords = []string{"cotton shirt", "steel pan", "oak table", "glass vase", "paper notebook", "rubber ball", "leather belt"}

var _ = Describe("An openAI embedder (issue 38): records embedded by the system, queries by the cache", Ordered, func() {
	var (
		srv   *embeddertest.Server
		ci    catalogIndex
		texts map[string]string // objectID -> template text
	)
	waiting := func() int64 {
		r := call(0, http.MethodGet, ci.base+"/indexing", ci.writeKey, nil)
		Expect(r.status).To(Equal(http.StatusOK), string(r.body))
		var st struct {
			Embeddings map[string]struct {
				Waiting int64 `json:"waiting"`
			} `json:"embeddings"`
		}
		Expect(json.Unmarshal(r.body, &st)).To(Succeed())
		Expect(st.Embeddings).To(HaveKey("bge"))
		return st.Embeddings["bge"].Waiting
	}
	withVectors := func() int64 {
		res, err := esClient.Count().Index(ci.names.Alias()).Query(&types.Query{Exists: &types.ExistsQuery{Field: "_vectors.bge"}}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		return res.Count
	}
	calls := func() int {
		n := 0
		for _, c := range srv.Texts() {
			n += c
		}
		return n
	}

	BeforeAll(func() {
		srv = embeddertest.New(256)
		DeferCleanup(srv.Close)
		// Every fifth call fails: a 429, a 500, then a call that outlives the client's
		// timeout, in turn.
		srv.FailEvery(5, embeddertest.Fault{Status: http.StatusTooManyRequests, RetryAfter: "0"},
			embeddertest.Fault{Status: http.StatusInternalServerError}, embeddertest.Fault{Stall: time.Second})
		secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "embedder-token"},
			Data: map[string][]byte{"token": []byte("s3cret\n")}}
		Expect(k8sClient.Create(ctx, secret)).To(Succeed())
		settings := searchv1alpha1.IndexSettings{
			SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 1}},
			Embedders: map[string]searchv1alpha1.Embedder{"bge": {Source: searchv1alpha1.EmbedderOpenAI, Dimensions: 256,
				URL: srv.URL, Model: "bow-256", DocumentTemplate: "{{name}} by {{brand}}. {{description}}",
				APIKeySecret: &searchv1alpha1.SecretKeySelector{Name: "embedder-token", Key: "token"}}},
		}
		texts = map[string]string{}
		var recs []string
		for i := range 200 {
			rec, text := restRecord(i, restWords[i%len(restWords)]+fmt.Sprintf(" model %d", i))
			b, err := json.Marshal(rec)
			Expect(err).NotTo(HaveOccurred())
			recs, texts[rec["objectID"].(string)] = append(recs, string(b)), text
		}
		recs = append(recs, `{"objectID": "socks", "name": "hiking socks", "brand": "trail", "description": "merino wool, warm"}`)
		texts["socks"] = "hiking socks by trail. merino wool, warm"
		ci = rankedIndex("embed-rest", settings, recs...)
	})

	It("gives every record its vector through 429s, 5xx and timeouts, none lost, each text embedded once", func() {
		Eventually(waiting, 2*time.Minute).Should(BeZero())
		Expect(withVectors()).To(Equal(int64(201)))
		Expect(srv.Failed()).To(BeNumerically(">", 0), "the faults were injected")
		got := srv.Texts()
		Expect(got).To(HaveLen(len(texts)))
		for id, text := range texts {
			Expect(got[text]).To(Equal(1), id)
		}
	})

	It("sends the apiKeySecret's token as a bearer", func() {
		Expect(srv.Authorizations()).NotTo(BeEmpty())
		for _, a := range srv.Authorizations() {
			Expect(a).To(Equal("Bearer s3cret"))
		}
	})

	It("reuses the vectors of records rewritten with their template text unchanged, with no call", func() {
		before := calls()
		var recs []map[string]any
		for i := range 50 {
			rec, _ := restRecord(i, restWords[i%len(restWords)]+fmt.Sprintf(" model %d", i))
			rec["price"] = i // not in the template
			recs = append(recs, rec)
		}
		r := call(0, http.MethodPost, ci.base+"/records", ci.writeKey, recordsBody(recs))
		Expect(r.status).To(Equal(http.StatusAccepted), string(r.body))
		Eventually(waiting, time.Minute).Should(BeZero())
		Expect(withVectors()).To(Equal(int64(201)))
		Expect(calls()).To(Equal(before))
		// A rewrite stores the record without its vector; only the worker, reusing the
		// kept one, puts it back. (Whether the worker had already done so by the time the
		// 202 came back depends on the machine, so it is not asserted.)
		for _, id := range []string{"p-0", "p-25", "p-49"} {
			Expect(recordOf(ci, id)["_vectors"]).To(HaveKey("bge"), id)
			Expect(recordOf(ci, id)).NotTo(HaveKey("_aisle_embed"), id)
		}
	})

	It("embeds again a record whose template field changed", func() {
		rec, text := restRecord(7, "bamboo cutting board")
		r := call(0, http.MethodPost, ci.base+"/records", ci.writeKey, recordsBody([]map[string]any{rec}))
		Expect(r.status).To(Equal(http.StatusAccepted), string(r.body))
		Eventually(func() int { return srv.Count(text) }, time.Minute).Should(Equal(1))
		Eventually(waiting, time.Minute).Should(BeZero())
		Expect(recordOf(ci, "p-7")["_vectors"]).To(HaveKey("bge"))
		Expect(recordOf(ci, "p-7")).NotTo(HaveKey("_aisle_embed"))
	})

	It("finds a record by meaning, embedding the query once through the cache", func() {
		srv.FailEvery(0)
		Expect(searchIn(ci, `{"q": "merino wool"}`).ids()).To(BeEmpty(), "no searchable field holds the words")
		Expect(string(searchBody(ci, `{"q": "merino wool", "explain": true, "hybrid": {"embedder": "bge", "semanticRatio": 1}}`))).
			NotTo(ContainSubstring("_aisle_embed"), "the embedders' state stays out of explained hits")
		for range 2 {
			res := searchIn(ci, `{"q": "merino wool", "hybrid": {"embedder": "bge", "semanticRatio": 1}}`)
			Expect(res.ids()).NotTo(BeEmpty())
			Expect(res.ids()[0]).To(Equal("socks"))
		}
		Expect(srv.Count("merino wool")).To(Equal(1))
	})

	It("searches by words alone, and says so, when the embedder fails at query time", func() {
		srv.FailNext(embeddertest.Fault{Status: 503}, embeddertest.Fault{Status: 503}, embeddertest.Fault{Status: 503})
		r := call(0, http.MethodPost, ci.base+"/search", ci.searchKey, []byte(`{"q": "hiking merino", "hybrid": {"embedder": "bge"}}`))
		Expect(r.status).To(Equal(http.StatusOK), string(r.body))
		var res struct {
			rankedResult
			SemanticFallback bool `json:"semanticFallback"`
		}
		Expect(json.Unmarshal(r.body, &res)).To(Succeed())
		Expect(res.SemanticFallback).To(BeTrue())
		Expect(res.ids()).To(Equal([]string{"socks"}))
		Expect(string(searchBody(ci, `{"q": "hiking", "hybrid": {"embedder": "bge"}}`))).NotTo(ContainSubstring("semanticFallback"))
	})

	It("refuses sendDimensions on a userProvided embedder, and keeps the settings as they were", func() {
		before := call(0, http.MethodGet, ci.base+"/config", ci.writeKey, nil)
		Expect(before.status).To(Equal(http.StatusOK), string(before.body))
		var cfg map[string]any
		Expect(json.Unmarshal(before.body, &cfg)).To(Succeed())
		delete(cfg, "rebuild")
		embedders, _ := cfg["embedders"].(map[string]any)
		if embedders == nil {
			embedders = map[string]any{}
		}
		embedders["own"] = map[string]any{"source": "userProvided", "dimensions": 3, "sendDimensions": true}
		cfg["embedders"] = embedders
		r := call(0, http.MethodPut, ci.base+"/config", ci.writeKey, cfg)
		Expect(r.status).To(Equal(http.StatusBadRequest), string(r.body))
		Expect(string(r.body)).To(ContainSubstring("embedders.own.sendDimensions: is only for an openAI embedder"))
		after := call(0, http.MethodGet, ci.base+"/config", ci.writeKey, nil)
		Expect(after.body).To(MatchJSON(before.body))
	})

	It("refuses a record that writes the embedders' state", func() {
		r := call(0, http.MethodPost, ci.base+"/records", ci.writeKey,
			recordsBody([]map[string]any{{"objectID": "x", "_aisle_embed": map[string]any{"bge": "x"}}}))
		Expect(r.status).To(Equal(http.StatusBadRequest), string(r.body))
		Expect(string(r.body)).To(ContainSubstring("_aisle_embed is a reserved field name"))
	})
})

func searchBody(ci catalogIndex, body string) []byte {
	r := call(0, http.MethodPost, ci.base+"/search", ci.searchKey, []byte(body))
	Expect(r.status).To(Equal(http.StatusOK), string(r.body))
	return r.body
}
