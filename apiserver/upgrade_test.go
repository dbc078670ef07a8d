package apiserver_test

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/types"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// earlierLayout is the create body of a physical index as releases before issue 21 made
// it: no words subfield, synonyms in a search analyzer, and their settings hash.
const earlierLayout = `{"settings": {"analysis": {
	"filter": {"aisle_synonyms": {"type": "synonym_graph", "synonyms": ["sneaker, shoe"]}},
	"analyzer": {"aisle_text": {"type": "custom", "tokenizer": "standard", "filter": ["lowercase", "asciifolding"]},
		"aisle_search": {"type": "custom", "tokenizer": "standard", "filter": ["lowercase", "asciifolding", "aisle_synonyms"]}}}},
	"mappings": {"dynamic": true, "_meta": {"aisle": {"settingsHash": "5c0e4a1f9b2d7e36"}}, "properties": {
		"objectID": {"type": "keyword"},
		"name": {"type": "text", "analyzer": "aisle_text", "search_analyzer": "aisle_search",
			"fields": {"keyword": {"type": "keyword", "ignore_above": 256}}}}},
	"aliases": {"ALIAS": {}}}`

var _ = Describe("An index built by a release before issue 21", func() {
	It("is rebuilt by the operator once, with its records, and then matches typos on its words", func() {
		names := esnames.For("shop", "rank-upgrade")
		_, err := esClient.Indices.Create(names.Physical(1)).Raw(strings.NewReader(strings.ReplaceAll(earlierLayout, "ALIAS", names.Alias()))).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		var bulk bytes.Buffer
		bulk.WriteString(`{"index": {"_id": "r1"}}` + "\n" + `{"objectID": "r1", "name": "Shoes", "aisleVersion": 1}` + "\n")
		bulk.WriteString(`{"index": {"_id": "r2"}}` + "\n" + `{"objectID": "r2", "name": "Socks", "aisleVersion": 1}` + "\n")
		res, err := esClient.Bulk().Index(names.Alias()).Raw(&bulk).Refresh(refresh.True).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Errors).To(BeFalse())

		settings := searchv1alpha1.IndexSettings{SearchableFields: []searchv1alpha1.SearchableField{{Path: "name"}},
			Synonyms: []searchv1alpha1.SynonymGroup{{Terms: []string{"sneaker", "shoe"}}}}
		createIndexWith("shop", "rank-upgrade", settings, nil, nil)
		want, err := indexmapping.Hash(settings)
		Expect(err).NotTo(HaveOccurred())
		Eventually(func(g Gomega) {
			var idx searchv1alpha1.SearchIndex
			g.Expect(k8sClient.Get(ctx, types.NamespacedName{Namespace: "shop", Name: "rank-upgrade"}, &idx)).To(Succeed())
			g.Expect(idx.Status.SettingsHash).To(Equal(want))
			g.Expect(idx.Status.PhysicalIndex).To(Equal(names.Physical(2)), "one rebuild, into the next generation")
			g.Expect(idx.Status.Records).To(BeEquivalentTo(2))
		}).WithTimeout(2 * 60e9).Should(Succeed())

		issueFor("shop-rank-upgrade-s", "shop", []searchv1alpha1.Scope{"search"}, []string{"rank-upgrade"}, nil, nil)
		ci := catalogIndex{name: "rank-upgrade", base: "/api/teams/shop/indexes/rank-upgrade", searchKey: keys["shop-rank-upgrade-s"], names: names}
		Eventually(func() int { return call(0, "GET", ci.base+"/fields", ci.searchKey, nil).status }).Should(Equal(http.StatusOK))
		Expect(searchIn(ci, `{"q": "sheos "}`).ids()).To(Equal([]string{"r1"}), "a transposition, matched on the words subfield")
		Expect(searchIn(ci, `{"q": "sneaker "}`).ids()).To(Equal([]string{"r1"}), "the synonym, applied by the query")
	})
})
