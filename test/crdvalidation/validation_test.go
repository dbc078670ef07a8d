package crdvalidation

import (
	"io"
	"sort"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

func sampleEntries() []TableEntry {
	objects, err := sampleObjects()
	if err != nil {
		panic(err)
	}
	names := make([]string, 0, len(objects))
	for name := range objects {
		names = append(names, name)
	}
	sort.Strings(names)
	entries := make([]TableEntry, 0, len(names))
	for _, name := range names {
		entries = append(entries, Entry(name, objects[name]))
	}
	return entries
}

var _ = Describe("The samples in config/samples", func() {
	DescribeTable("are accepted by the generated CRDs",
		func(obj client.Object) {
			Expect(k8sClient.Create(ctx, obj)).To(Succeed())
		},
		sampleEntries(),
	)
})

// expectRejected asserts the API server refused the object as invalid, with the rule's message.
func expectRejected(err error, message string) {
	Expect(err).To(HaveOccurred(), "the object was accepted, but should be refused with %q", message)
	Expect(apierrors.IsInvalid(err)).To(BeTrue(), "want an Invalid error, got: %v", err)
	Expect(err.Error()).To(ContainSubstring(message))
}

var _ = Describe("Objects that break a rule", func() {
	DescribeTable("are rejected on create with the rule's message",
		func(manifest, message string) {
			expectRejected(k8sClient.Create(ctx, object(manifest)), message)
		},
		Entry("an allowed origin with a path", searchIndex("", `allowedOrigins: ["https://shop.example/cart"]`),
			"an origin is scheme://host[:port]"),
		Entry("an allowed origin with a trailing slash", searchIndex("", `allowedOrigins: ["https://shop.example/"]`),
			"an origin is scheme://host[:port]"),
		Entry("an allowed origin with a wildcard", searchIndex("", `allowedOrigins: ["https://*.shop.example"]`),
			"an origin is scheme://host[:port]"),
		Entry("an allowed origin with another scheme", searchIndex("", `allowedOrigins: ["ftp://shop.example"]`),
			"an origin is scheme://host[:port]"),
		Entry("the same allowed origin twice", searchIndex("", `allowedOrigins: ["https://shop.example", "https://shop.example"]`),
			"Duplicate value"),
		Entry("an index name with a dot", searchIndex("summer.sale", `deletionPolicy: Retain`),
			"an index name is at most 63 lowercase letters"),
		Entry("an unknown deletion policy", searchIndex("", `deletionPolicy: Archive`),
			`supported values: "Retain", "Delete"`),
		Entry("a searchable field weight of 0", searchIndex("", "settings:\n  searchableFields:\n    - path: name\n      weight: 0"),
			"should be greater than or equal to 1"),
		Entry("a field path with an empty segment", searchIndex("", `settings: {facetFields: ["price..amount"]}`),
			"should match"),
		Entry("an unknown language", searchIndex("", `settings: {language: klingon}`),
			`supported values: "en", "de", "fr", "es", "it", "nl", "pt", "sv", "da", "no", "fi", "pl", "tr", "generic"`),
		Entry("an unknown ranking criterion", searchIndex("", `settings: {ranking: [words, popularity]}`),
			`supported values: "sort", "words", "typo", "proximity", "attribute", "exact", "custom"`),
		Entry("a ranking criterion twice", searchIndex("", `settings: {ranking: [words, typo, words]}`),
			"Duplicate value"),
		Entry("typo word sizes out of order", searchIndex("", `settings: {typoTolerance: {minWordSizeFor1Typo: 6, minWordSizeFor2Typos: 5}}`),
			"minWordSizeFor2Typos must be at least minWordSizeFor1Typo"),
		Entry("typo word sizes out of order with a default", searchIndex("", `settings: {typoTolerance: {minWordSizeFor1Typo: 9}}`),
			"minWordSizeFor2Typos must be at least minWordSizeFor1Typo"),
		Entry("a multiWay synonym with an input", searchIndex("", `settings: {synonyms: [{terms: [tv, telly], input: tv}]}`),
			"a multiWay synonym has terms (2 to 20) and nothing else"),
		Entry("a oneWay synonym without input", searchIndex("", `settings: {synonyms: [{type: oneWay, synonyms: [mobile]}]}`),
			"a oneWay synonym has input and synonyms, and nothing else"),
		Entry("an altCorrection with terms", searchIndex("", `settings: {synonyms: [{type: altCorrection, word: addidas, corrections: [adidas], terms: [a, b]}]}`),
			"an altCorrection has word, corrections and typos, and nothing else"),
		Entry("an altCorrection of three typos", searchIndex("", `settings: {synonyms: [{type: altCorrection, word: addidas, corrections: [adidas], typos: 3}]}`),
			"should be less than or equal to 2"),
		Entry("an unknown synonym type", searchIndex("", `settings: {synonyms: [{type: twoWay, terms: [a, b]}]}`),
			`supported values: "multiWay", "oneWay", "altCorrection"`),
		Entry("a synonym group of one term", searchIndex("", `settings: {synonyms: [{terms: [tv]}]}`),
			"should have at least 2 items"),
		Entry("a synonym term with a comma", searchIndex("", `settings: {synonyms: [{terms: ["tv,television", telly]}]}`),
			"a synonym term may not contain ',' or '=>'"),
		Entry("suggestions from no day", searchIndex("", `settings: {suggestions: {minDays: 0}}`),
			"should be greater than or equal to 1"),
		Entry("suggestions from more days than the search log keeps", searchIndex("", `settings: {suggestions: {minDays: 91}}`),
			"should be less than or equal to 90"),
		Entry("an excluded suggestion word twice", searchIndex("", `settings: {suggestions: {exclude: [sale, sale]}}`),
			"Duplicate value"),
		Entry("an empty excluded suggestion word", searchIndex("", `settings: {suggestions: {exclude: [""]}}`),
			"should be at least 1 chars long"),
		Entry("a public hit cap above 50", searchIndex("", `publicAccess: {policy: {maxHits: 51}}`),
			"should be less than or equal to 50"),
		Entry("a forced filter with values and a range", searchIndex("", `publicAccess: {policy: {forcedFilters: [{field: price, values: ["1"], range: {gte: "1"}}]}}`),
			"a filter condition has exactly one of values or range"),
		Entry("a forced filter range without bounds", searchIndex("", `publicAccess: {policy: {forcedFilters: [{field: price, range: {}}]}}`),
			"a range needs at least one of gt, gte, lt, lte"),
		Entry("a forced filter range with two lower bounds", searchIndex("", `publicAccess: {policy: {forcedFilters: [{field: price, range: {gt: "1", gte: "2"}}]}}`),
			"a range takes at most one lower bound"),
		Entry("an API key without scopes", apiKey("", `scopes: []`),
			"should have at least 1 items"),
		Entry("an API key with an unknown scope", apiKey("", `scopes: [admin]`),
			`supported values: "search", "write", "events"`),
		Entry("an API key name with a dot", apiKey("ci.deploy", `scopes: [search]`),
			"a key name is at most 63 lowercase letters"),
		Entry("an API key limited to an index with an invalid name", apiKey("", "scopes: [search]\nindexes: [Products]"),
			"should match"),
		Entry("an automatic rotation more often than hourly", apiKey("", "scopes: [write]\nrotation: {every: 10m}"),
			"rotation.every must be at least 1h"),
		Entry("a rotation overlap above 30 days", apiKey("", "scopes: [write]\nrotation: {overlap: 1000h}"),
			"rotation.overlap must be between 0s and 720h"),
		Entry("a workspace name with a dot", workspace("acme.shop", `displayName: Acme`),
			"a workspace name is a DNS label"),
		Entry("a workspace that allows no index", workspace("", `plan: {maxIndexes: 0}`),
			"should be greater than or equal to 1"),
	)

	DescribeTable("are rejected on update when an immutable field changes",
		func(before, after, message string) {
			obj := object(before)
			Expect(k8sClient.Create(ctx, obj)).To(Succeed())
			changed := object(after)
			changed.SetName(obj.GetName())
			changed.SetResourceVersion(obj.GetResourceVersion())
			expectRejected(k8sClient.Update(ctx, changed), message)
		},
		Entry("an API key's secret name is changed",
			apiKey("", "scopes: [search]\nsecretName: shop-search"), apiKey("", "scopes: [search]\nsecretName: other"),
			"secretName is immutable"),
		Entry("an API key's secret name is removed",
			apiKey("", "scopes: [search]\nsecretName: shop-search"), apiKey("", "scopes: [search]"),
			"secretName is immutable"),
	)
})

var _ = Describe("kubectl explain", func() {
	It("shows the documentation of the SearchIndex spec fields", func() {
		admin, err := testEnv.ControlPlane.AddUser(envtest.User{Name: "admin", Groups: []string{"system:masters"}}, nil)
		Expect(err).NotTo(HaveOccurred())
		kubectl, err := admin.Kubectl()
		Expect(err).NotTo(HaveOccurred())
		// The apiserver publishes a new CRD's OpenAPI document asynchronously.
		Eventually(func(g Gomega) string {
			stdout, stderr, err := kubectl.Run("explain", "searchindex.spec")
			errText, _ := io.ReadAll(stderr)
			g.Expect(err).NotTo(HaveOccurred(), "kubectl explain: %s", errText)
			out, err := io.ReadAll(stdout)
			g.Expect(err).NotTo(HaveOccurred())
			return string(out)
		}).WithTimeout(30 * time.Second).Should(SatisfyAll(
			ContainSubstring("allowedOrigins"),
			ContainSubstring("are the browser origins that may call the public endpoints"),
			ContainSubstring("deletionPolicy"),
		))
	})
})
