package apiserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	ktypes "k8s.io/apimachinery/pkg/types"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/embedder/embeddertest"
	"github.com/aislehq/aisle/internal/es"
)

// embedderIndex is an index whose openAI embedder "bge" the specs change through
// PUT /config, with what they read of it.
type embedderIndex struct {
	catalogIndex
	settings searchv1alpha1.IndexSettings
}

// put replaces the settings with change applied to a copy of them, and waits until the
// API answered and, when it rebuilds, until the rebuild succeeded; it returns what
// was rebuilt.
func (ei *embedderIndex) put(change func(*searchv1alpha1.IndexSettings)) []string {
	s := *ei.settings.DeepCopy()
	change(&s)
	r := call(0, http.MethodPut, ei.base+"/config", ei.writeKey, s)
	Expect(r.status).To(Equal(http.StatusOK), string(r.body))
	var w struct {
		Rebuilt []string `json:"rebuilt"`
	}
	Expect(json.Unmarshal(r.body, &w)).To(Succeed())
	ei.settings = s
	if len(w.Rebuilt) > 0 {
		var idx searchv1alpha1.SearchIndex
		Expect(k8sClient.Get(ctx, ktypes.NamespacedName{Namespace: "shop", Name: ei.name}, &idx)).To(Succeed())
		Eventually(func(g Gomega) {
			st := rebuildStatus(ei.catalogIndex)
			g.Expect(st).NotTo(BeNil())
			g.Expect(st.Generation).To(BeNumerically(">=", idx.Generation))
			g.Expect(st.State).To(Equal(searchv1alpha1.RebuildSucceeded))
		}).WithTimeout(2 * time.Minute).Should(Succeed())
	}
	return w.Rebuilt
}

// waiting is GET /indexing's count of the records waiting for embedder name's vector,
// through replica i (-1 when the replica does not count that embedder yet).
func (ei *embedderIndex) waiting(i int, name string) int64 {
	r := call(i, http.MethodGet, ei.base+"/indexing", ei.writeKey, nil)
	Expect(r.status).To(Equal(http.StatusOK), string(r.body))
	var st struct {
		Embeddings map[string]struct {
			Waiting int64 `json:"waiting"`
		} `json:"embeddings"`
	}
	Expect(json.Unmarshal(r.body, &st)).To(Succeed())
	e, ok := st.Embeddings[name]
	if !ok {
		return -1
	}
	return e.Waiting
}

// settled waits until both replicas see no record waiting for name's vector.
func (ei *embedderIndex) settled(name string) {
	for i := range 2 {
		Eventually(func() int64 { return ei.waiting(i, name) }, 2*time.Minute).Should(BeZero())
	}
}

// withVectors counts the records holding a vector at path.
func (ei *embedderIndex) withVectors(path string) int64 {
	res, err := esClient.Count().Index(ei.names.Alias()).Query(&types.Query{Exists: &types.ExistsQuery{Field: path}}).Do(ctx)
	Expect(err).NotTo(HaveOccurred())
	return res.Count
}

// mappedVectors are the fields the index behind the alias maps under _vectors and
// _aisle_embed.
func (ei *embedderIndex) mappedVectors() map[string][]string {
	raw, err := es.ReadBody(esClient.Indices.GetMapping().Index(ei.names.Alias()).Perform(ctx)) //nolint:bodyclose // ReadBody closes it
	Expect(err).NotTo(HaveOccurred())
	var m map[string]struct {
		Mappings struct {
			Properties map[string]struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"properties"`
		} `json:"mappings"`
	}
	Expect(json.Unmarshal(raw, &m)).To(Succeed())
	Expect(m).To(HaveLen(1))
	out := map[string][]string{}
	for _, idx := range m {
		for _, f := range []string{"_vectors", "_aisle_embed"} {
			for name := range idx.Mappings.Properties[f].Properties {
				out[f] = append(out[f], name)
			}
		}
	}
	return out
}

// embedRecords are n records and, by objectID, their texts under the template
// "{{name}} by {{brand}}. {{description}}".
func embedRecords(n int) ([]string, map[string]string) {
	var recs []string
	texts := map[string]string{}
	for i := range n {
		rec, text := restRecord(i, fmt.Sprintf("%s number %d", restWords[i%len(restWords)], i))
		b, err := json.Marshal(rec)
		Expect(err).NotTo(HaveOccurred())
		recs, texts[rec["objectID"].(string)] = append(recs, string(b)), text
	}
	return recs, texts
}

var _ = Describe("Changing an openAI embedder (issue 38): what re-embeds the records and what does not", Ordered, func() {
	const records = 40
	var (
		srv, other *embeddertest.Server
		ei         embedderIndex
		texts      map[string]string
	)
	counts := func(s *embeddertest.Server, texts map[string]string) []int {
		got := s.Texts()
		out := make([]int, 0, len(texts))
		for _, t := range texts {
			out = append(out, got[t])
		}
		return out
	}
	everyOnce := func(n int) []int {
		out := make([]int, records)
		for i := range out {
			out[i] = n
		}
		return out
	}

	BeforeAll(func() {
		srv, other = embeddertest.New(16), embeddertest.New(16)
		DeferCleanup(srv.Close)
		DeferCleanup(other.Close)
		ei.settings = searchv1alpha1.IndexSettings{
			SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 1}},
			Embedders: map[string]searchv1alpha1.Embedder{"bge": {Source: searchv1alpha1.EmbedderOpenAI, Dimensions: 16,
				URL: srv.URL, Model: "bow-16", DocumentTemplate: "{{name}} by {{brand}}. {{description}}"}},
		}
		var recs []string
		recs, texts = embedRecords(records)
		ei.catalogIndex = rankedIndex("embed-change", ei.settings, recs...)
		ei.settled("bge")
		Expect(counts(srv, texts)).To(Equal(everyOnce(1)))
	})

	It("re-embeds nothing when other settings change, even those that rebuild the index", func() {
		before := srv.Texts()
		Expect(ei.put(func(s *searchv1alpha1.IndexSettings) {
			s.SearchableFields = append(s.SearchableFields, searchv1alpha1.SearchableField{Path: "brand", Weight: 1})
			s.Synonyms = []searchv1alpha1.SynonymGroup{{Terms: []string{"shirt", "tee"}}}
		})).To(ContainElement("searchableFields"))
		ei.settled("bge")
		Expect(ei.withVectors("_vectors.bge")).To(Equal(int64(records)), "the rebuild copied every vector")
		Expect(srv.Texts()).To(Equal(before))
	})

	It("re-embeds every record once when the model changes", func() {
		Expect(ei.put(func(s *searchv1alpha1.IndexSettings) {
			e := s.Embedders["bge"]
			e.Model = "bow-16-v2"
			s.Embedders["bge"] = e
		})).To(ContainElement("embedders"))
		Eventually(func() []int { return counts(srv, texts) }, 2*time.Minute).Should(Equal(everyOnce(2)))
		ei.settled("bge")
		Expect(counts(srv, texts)).To(Equal(everyOnce(2)))
	})

	It("re-embeds every record once when the template changes its text, and no record twice", func() {
		newTexts := map[string]string{}
		for id, t := range texts {
			newTexts[id] = "about " + t
		}
		ei.put(func(s *searchv1alpha1.IndexSettings) {
			e := s.Embedders["bge"]
			e.DocumentTemplate = "about {{name}} by {{brand}}. {{description}}"
			s.Embedders["bge"] = e
		})
		Eventually(func() []int { return counts(srv, newTexts) }, 2*time.Minute).Should(Equal(everyOnce(1)))
		ei.settled("bge")
		Expect(counts(srv, newTexts)).To(Equal(everyOnce(1)))
		Expect(counts(srv, texts)).To(Equal(everyOnce(2)), "the old texts were not embedded again")
		texts = newTexts
	})

	It("re-embeds every record with the new server when the url changes, without a rebuild", func() {
		Expect(ei.put(func(s *searchv1alpha1.IndexSettings) {
			e := s.Embedders["bge"]
			e.URL = other.URL
			s.Embedders["bge"] = e
		})).To(BeEmpty())
		Eventually(func() []int { return counts(other, texts) }, 2*time.Minute).Should(Equal(everyOnce(1)))
		ei.settled("bge")
		Expect(counts(other, texts)).To(Equal(everyOnce(1)))
		Expect(counts(srv, texts)).To(Equal(everyOnce(1)), "the old server embedded nothing more")
	})

	It("rebuilds with the new dimensions, sent to the server when asked, and re-embeds every record", func() {
		Expect(ei.put(func(s *searchv1alpha1.IndexSettings) {
			e := s.Embedders["bge"]
			e.Dimensions, e.SendDimensions = 8, true
			s.Embedders["bge"] = e
		})).To(ContainElement("embedders"))
		Eventually(func() []int { return counts(other, texts) }, 2*time.Minute).Should(Equal(everyOnce(2)))
		ei.settled("bge")
		Expect(ei.withVectors("_vectors.bge")).To(Equal(int64(records)))
		Expect(other.SentDimensions()).To(ContainElement(8))
		rec := recordOf(ei.catalogIndex, "p-3")
		Expect(rec["_vectors"]).To(HaveKeyWithValue("bge", HaveLen(8)))
		q, err := json.Marshal(map[string]any{"q": texts["p-1"], "hybrid": map[string]any{"embedder": "bge", "semanticRatio": 1}})
		Expect(err).NotTo(HaveOccurred())
		res := searchIn(ei.catalogIndex, string(q))
		Expect(res.ids()).NotTo(BeEmpty())
		Expect(res.ids()[0]).To(Equal("p-1"))
	})
})

var _ = Describe("Removing or renaming an embedder (issue 38)", Ordered, func() {
	var (
		srv *embeddertest.Server
		ei  embedderIndex
	)
	BeforeAll(func() {
		srv = embeddertest.New(8)
		DeferCleanup(srv.Close)
		ei.settings = searchv1alpha1.IndexSettings{
			SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 1}},
			Embedders: map[string]searchv1alpha1.Embedder{
				"bge": {Source: searchv1alpha1.EmbedderOpenAI, Dimensions: 8, URL: srv.URL, Model: "bow-8", DocumentTemplate: "{{name}}"},
				"own": {Source: searchv1alpha1.EmbedderUserProvided, Dimensions: 3},
			},
		}
		ei.catalogIndex = rankedIndex("embed-remove", ei.settings,
			`{"objectID": "a", "name": "red shoe", "_vectors": {"own": [1, 0, 0]}}`,
			`{"objectID": "b", "name": "blue hat", "_vectors": {"own": [0, 1, 0]}}`)
		ei.settled("bge")
		Expect(ei.withVectors("_vectors.bge")).To(Equal(int64(2)))
	})

	It("drops the removed embedder's vectors from every record and its field from the mapping", func() {
		Expect(ei.put(func(s *searchv1alpha1.IndexSettings) {
			s.Embedders = map[string]searchv1alpha1.Embedder{"mine": s.Embedders["own"]} // bge removed, own renamed
		})).To(ContainElement("embedders"))
		for _, id := range []string{"a", "b"} {
			Expect(recordOf(ei.catalogIndex, id)).NotTo(HaveKey("_vectors"), id)
		}
		Expect(ei.withVectors("_vectors.bge")).To(BeZero())
		Expect(ei.withVectors("_vectors.own")).To(BeZero())
		Expect(ei.withVectors("_aisle_embed.bge.config")).To(BeZero())
		Expect(ei.mappedVectors()).To(Equal(map[string][]string{"_vectors": {"mine"}}))
	})

	It("refuses a search or a record naming an embedder that is gone, and takes the new name", func() {
		for _, name := range []string{"bge", "own"} {
			r := call(0, http.MethodPost, ei.base+"/search", ei.searchKey,
				[]byte(`{"q": "shoe", "hybrid": {"embedder": "`+name+`"}, "vector": [1, 0, 0]}`))
			Expect(r.status).To(Equal(http.StatusBadRequest), string(r.body))
			Expect(string(r.body)).To(ContainSubstring(name))
		}
		r := call(0, http.MethodPost, ei.base+"/records", ei.writeKey,
			recordsBody([]map[string]any{{"objectID": "c", "name": "green boot", "_vectors": map[string]any{"own": []float64{1, 0, 0}}}}))
		Expect(r.status).To(Equal(http.StatusBadRequest), string(r.body))
		r = call(0, http.MethodPost, ei.base+"/records", ei.writeKey,
			recordsBody([]map[string]any{{"objectID": "c", "name": "green boot", "_vectors": map[string]any{"mine": []float64{1, 0, 0}}}}))
		Expect(r.status).To(Equal(http.StatusAccepted), string(r.body))
		Eventually(func() []string {
			return searchIn(ei.catalogIndex, `{"q": "boot", "hybrid": {"embedder": "mine", "semanticRatio": 1}, "vector": [1, 0, 0]}`).ids()
		}).Should(Equal([]string{"c"}))
	})
})
