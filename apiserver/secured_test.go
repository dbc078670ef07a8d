package apiserver_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/aislehq/aisle/api/securedkey"
	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/apikey"
)

// deriveSecuredFixtures derives, for the authentication table, secured keys of the acme
// search key: a valid one, an expired one, one tampered with, and one whose parent
// Aisle never issued (as after its deletion).
func deriveSecuredFixtures(now time.Time) {
	keys["secured"] = derive(keys["search"], securedkey.Restrictions{MaxHits: 5})
	keys["secured-expired"] = derive(keys["search"], securedkey.Restrictions{ValidUntil: now.Add(-time.Minute)})
	keys["secured-tampered"] = tamperPayload(derive(keys["search"], securedkey.Restrictions{Indexes: []string{"products"}}))
	stranger, err := apikey.New()
	Expect(err).NotTo(HaveOccurred())
	keys["secured-orphan"] = derive(stranger, securedkey.Restrictions{})
}

func derive(parent string, r securedkey.Restrictions) string {
	key, err := securedkey.Generate(parent, r)
	Expect(err).NotTo(HaveOccurred())
	return key
}

// tamperPayload replaces the signed payload with one naming another index (the
// signature left as it was), as someone widening a key in a browser would.
func tamperPayload(key string) string {
	encPayload, sig, _ := strings.Cut(strings.TrimPrefix(key, securedkey.Prefix), ".")
	payload, err := base64.RawURLEncoding.DecodeString(encPayload)
	Expect(err).NotTo(HaveOccurred())
	widened := strings.Replace(string(payload), `"products"`, `"staff-only"`, 1)
	return securedkey.Prefix + base64.RawURLEncoding.EncodeToString([]byte(widened)) + "." + sig
}

// wholesaleSettings are those of the wholesale workspace's indexes: each record belongs
// to a customer group, whose prices a shop shows only to that group.
var wholesaleSettings = searchv1alpha1.IndexSettings{
	SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 1}},
	FilterableFields: []searchv1alpha1.FieldPath{"customerGroup", "price"},
	FacetFields:      []searchv1alpha1.FieldPath{"customerGroup"},
}

var wholesaleRecords = []string{
	`{"objectID": "w1", "name": "Blue pallet", "customerGroup": "b2b-42", "price": 10}`,
	`{"objectID": "w2", "name": "Red pallet", "customerGroup": "b2b-42", "price": 20}`,
	`{"objectID": "w3", "name": "Green crate", "customerGroup": "b2b-42", "price": 30}`,
	`{"objectID": "w4", "name": "Blue pallet deluxe", "customerGroup": "b2b-7", "price": 15}`,
	`{"objectID": "w5", "name": "Red crate", "customerGroup": "b2b-7", "price": 25}`,
	`{"objectID": "w6", "name": "Retail pallet", "price": 40}`,
}

const wholesaleOrigin = "https://wholesale.example"

func wholesaleSearch(index, key, body string, headers map[string]string) *httptest.ResponseRecorder {
	return send(server, http.MethodPost, "/api/teams/wholesale/indexes/"+index+"/search", key, body, headers)
}

// wholesaleHits searches as key and returns the IDs of the hits, and the limit applied.
func wholesaleHits(key, body string) ([]string, int) {
	GinkgoHelper()
	rec := wholesaleSearch("b2b", key, body, nil)
	Expect(rec.Code).To(Equal(http.StatusOK), "body: %s", rec.Body.String())
	var res searchResult
	Expect(json.Unmarshal(rec.Body.Bytes(), &res)).To(Succeed())
	return res.ids(), res.Limit
}

// eventuallyAnswers waits for the informers to show what a spec wrote.
func eventuallyAnswers(key string, status int) {
	GinkgoHelper()
	Eventually(func() int { return wholesaleSearch("b2b", key, `{}`, nil).Code }).Should(Equal(status))
}

// changeStatus rewrites the status of the APIKey name of wholesale, as the operator would.
func changeStatus(name string, change func(*searchv1alpha1.APIKeyStatus)) {
	k := &searchv1alpha1.APIKey{}
	Eventually(func() error {
		if err := k8sClient.Get(ctx, client.ObjectKey{Namespace: "wholesale", Name: name}, k); err != nil {
			return err
		}
		change(&k.Status)
		return k8sClient.Status().Update(ctx, k)
	}).Should(Succeed())
}

var _ = Describe("Secured keys (issue 22)", Ordered, func() {
	var parent string
	group42 := map[string]any{"field": "customerGroup", "eq": "b2b-42"}

	BeforeAll(func() {
		Expect(k8sClient.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "wholesale"}})).To(Succeed())
		Expect(k8sClient.Create(ctx, &searchv1alpha1.Workspace{ObjectMeta: metav1.ObjectMeta{Name: "wholesale"}})).To(Succeed())
		for _, name := range []string{"b2b", "b2b-archive"} {
			createIndexWith("wholesale", name, wholesaleSettings, []searchv1alpha1.Origin{wholesaleOrigin}, nil)
			loadRecords("wholesale", name, wholesaleSettings, wholesaleRecords)
		}
		issueFor("wholesale-server", "wholesale", []searchv1alpha1.Scope{"search"}, []string{"b2b", "b2b-archive"}, nil, nil)
		parent = keys["wholesale-server"]
		eventuallyAnswers(parent, http.StatusOK)
	})

	It("searches with its filters on top of the request's: another group's records never appear", func() {
		key := derive(parent, securedkey.Restrictions{Filters: group42, ValidUntil: time.Now().Add(time.Hour)})
		ids, _ := wholesaleHits(key, `{"q": "pallet"}`)
		Expect(ids).To(ConsistOf("w1", "w2"))
		ids, _ = wholesaleHits(key, `{"filters": {"field": "price", "range": {"gte": 15}}}`)
		Expect(ids).To(ConsistOf("w2", "w3"))

		rec := wholesaleSearch("b2b", key, `{"facets": ["customerGroup"]}`, nil)
		Expect(rec.Body.String()).To(ContainSubstring(`"customerGroup":[{"value":"b2b-42","count":3}]`), "facets count the group's records only")
	})

	DescribeTable("cannot be widened by the request",
		func(body string) {
			key := derive(parent, securedkey.Restrictions{Filters: group42})
			ids, _ := wholesaleHits(key, body)
			Expect(ids).NotTo(ContainElements("w4", "w5", "w6"))
		},
		Entry("a filter on another group", `{"filters": {"field": "customerGroup", "eq": "b2b-7"}}`),
		Entry("an or with another group", `{"filters": {"or": [{"field": "customerGroup", "eq": "b2b-7"}, {"field": "customerGroup", "eq": "b2b-42"}]}}`),
		Entry("a not of its own group", `{"filters": {"not": {"field": "customerGroup", "eq": "b2b-42"}}}`),
		Entry("a query naming another group's product", `{"q": "deluxe"}`),
	)

	It("reaches only the parent's indexes that it names", func() {
		key := derive(parent, securedkey.Restrictions{Indexes: []string{"b2b", "staff"}})
		Expect(wholesaleSearch("b2b", key, `{}`, nil).Code).To(Equal(http.StatusOK))
		rec := wholesaleSearch("b2b-archive", key, `{}`, nil)
		Expect(rec.Code).To(Equal(http.StatusForbidden))
		Expect(rec.Body.String()).To(MatchJSON(errorBody("API key does not grant access to this index")))
	})

	It("caps each search at its maxHits, answering a larger limit with that many", func() {
		key := derive(parent, securedkey.Restrictions{MaxHits: 2})
		ids, limit := wholesaleHits(key, `{"limit": 50}`)
		Expect(ids).To(HaveLen(2))
		Expect(limit).To(Equal(2))
		ids, limit = wholesaleHits(key, `{"limit": 1}`)
		Expect(ids).To(HaveLen(1))
		Expect(limit).To(Equal(1))
	})

	It("answers a request whose key's filters cannot apply with 400 naming them", func() {
		key := derive(parent, securedkey.Restrictions{Filters: map[string]any{"field": "name", "eq": "x"}})
		rec := wholesaleSearch("b2b", key, `{}`, nil)
		Expect(rec.Code).To(Equal(http.StatusBadRequest))
		Expect(rec.Body.String()).To(MatchJSON(errorBody(`invalid search request: securedKey.filters.field: "name" is not a filterable field (filterable fields: customerGroup, price)`)))
	})

	DescribeTable("answers 401 to a key that does not hold",
		func(key func() string, message string) {
			rec := wholesaleSearch("b2b", key(), `{}`, nil)
			Expect(rec.Code).To(Equal(http.StatusUnauthorized))
			Expect(rec.Body.String()).To(MatchJSON(errorBody(message)))
		},
		Entry("past its validUntil", func() string {
			return derive(parent, securedkey.Restrictions{ValidUntil: time.Now().Add(-time.Second)})
		}, "API key expired"),
		Entry("with its payload changed", func() string {
			key := derive(parent, securedkey.Restrictions{Filters: group42})
			encPayload, sig, _ := strings.Cut(strings.TrimPrefix(key, securedkey.Prefix), ".")
			payload, _ := base64.RawURLEncoding.DecodeString(encPayload)
			widened := strings.Replace(string(payload), "b2b-42", "b2b-7", 1)
			return securedkey.Prefix + base64.RawURLEncoding.EncodeToString([]byte(widened)) + "." + sig
		}, "invalid secured API key: the signature does not match the payload"),
		Entry("with its signature changed", func() string {
			key := derive(parent, securedkey.Restrictions{Filters: group42})
			i := len(key) - 10 // inside the signature
			flipped := map[bool]string{true: "B", false: "A"}[key[i] == 'A']
			return key[:i] + flipped + key[i+1:]
		}, "invalid secured API key: the signature does not match the payload"),
		Entry("whose filters were dropped, signed by another key", func() string {
			other, _ := apikey.New()
			forged := derive(other, securedkey.Restrictions{})
			_, sig, _ := strings.Cut(forged, ".")
			payload := `{"v":1,"key":"` + securedkey.PublicKey(parent) + `"}`
			return securedkey.Prefix + base64.RawURLEncoding.EncodeToString([]byte(payload)) + "." + sig
		}, "invalid secured API key: the signature does not match the payload"),
		Entry("longer than 8 KiB", func() string {
			return securedkey.Prefix + strings.Repeat("x", securedkey.MaxLength)
		}, "invalid secured API key: longer than 8192 bytes"),
	)

	It("stops working when its parent key is deleted", func() {
		issueFor("doomed", "wholesale", []searchv1alpha1.Scope{"search"}, []string{"b2b"}, nil, nil)
		key := derive(keys["doomed"], securedkey.Restrictions{Filters: group42})
		eventuallyAnswers(key, http.StatusOK)
		Expect(k8sClient.Delete(ctx, &searchv1alpha1.APIKey{ObjectMeta: metav1.ObjectMeta{Namespace: "wholesale", Name: "doomed"}})).To(Succeed())
		eventuallyAnswers(key, http.StatusUnauthorized)
		Expect(wholesaleSearch("b2b", key, `{}`, nil).Body.String()).To(MatchJSON(
			errorBody("invalid secured API key: the key it was derived from is unknown: deleted, or rotated away")))
	})

	It("works through its parent's rotation overlap, and stops when the overlap ends", func() {
		issueFor("rotating", "wholesale", []searchv1alpha1.Scope{"search"}, []string{"b2b"}, nil, nil)
		old := keys["rotating"]
		before := derive(old, securedkey.Restrictions{Filters: group42})
		eventuallyAnswers(before, http.StatusOK)

		By("the operator rotating the parent, with an overlap of an hour")
		next, err := apikey.New()
		Expect(err).NotTo(HaveOccurred())
		changeStatus("rotating", func(s *searchv1alpha1.APIKeyStatus) {
			previous := issuedKey(old)
			previous.RevokeAt = &metav1.Time{Time: time.Now().Add(time.Hour)}
			s.Current, s.Previous = new(issuedKey(next)), []searchv1alpha1.IssuedKey{previous}
		})
		after := derive(next, securedkey.Restrictions{Filters: group42})
		eventuallyAnswers(after, http.StatusOK)
		Expect(wholesaleSearch("b2b", before, `{}`, nil).Code).To(Equal(http.StatusOK), "during the overlap")

		By("the overlap ending")
		changeStatus("rotating", func(s *searchv1alpha1.APIKeyStatus) {
			s.Previous[0].RevokeAt = &metav1.Time{Time: time.Now().Add(-time.Second)}
		})
		eventuallyAnswers(before, http.StatusUnauthorized)
		Expect(wholesaleSearch("b2b", before, `{}`, nil).Body.String()).To(MatchJSON(errorBody("API key revoked")))

		By("the operator dropping the previous key")
		changeStatus("rotating", func(s *searchv1alpha1.APIKeyStatus) { s.Previous = nil })
		Eventually(func() string { return wholesaleSearch("b2b", before, `{}`, nil).Body.String() }).Should(ContainSubstring("unknown"))
		Expect(wholesaleSearch("b2b", after, `{}`, nil).Code).To(Equal(http.StatusOK))
	})

	Describe("from a web page", func() {
		It("answers an allowed origin with CORS headers, and refuses another", func() {
			key := derive(parent, securedkey.Restrictions{Filters: group42})
			rec := wholesaleSearch("b2b", key, `{}`, map[string]string{"Origin": wholesaleOrigin})
			Expect(rec.Code).To(Equal(http.StatusOK))
			Expect(rec.Header().Get("Access-Control-Allow-Origin")).To(Equal(wholesaleOrigin))
			Expect(rec.Header().Values("Vary")).To(ContainElement(ContainSubstring("Origin")))

			rec = wholesaleSearch("b2b", key, `{}`, map[string]string{"Origin": "https://elsewhere.example"})
			Expect(rec.Code).To(Equal(http.StatusForbidden))
			Expect(rec.Body.String()).To(MatchJSON(errorBody("origin not allowed: send an Origin header with one of the index's allowed origins")))
			Expect(rec.Header().Get("Access-Control-Allow-Origin")).To(BeEmpty())
		})

		It("lets the page read a refused key's 401, so it can fetch a new key", func() {
			key := derive(parent, securedkey.Restrictions{ValidUntil: time.Now().Add(-time.Second)})
			rec := wholesaleSearch("b2b", key, `{}`, map[string]string{"Origin": wholesaleOrigin})
			Expect(rec.Code).To(Equal(http.StatusUnauthorized))
			Expect(rec.Header().Get("Access-Control-Allow-Origin")).To(Equal(wholesaleOrigin))
		})

		It("gives a plain key's answers no CORS headers: it belongs on a server", func() {
			rec := wholesaleSearch("b2b", parent, `{}`, map[string]string{"Origin": wholesaleOrigin})
			Expect(rec.Code).To(Equal(http.StatusOK))
			Expect(rec.Header().Get("Access-Control-Allow-Origin")).To(BeEmpty())
		})

		It("answers the preflight alike for any path and origin, looking nothing up", func() {
			for _, path := range []string{"/api/teams/wholesale/indexes/b2b/search", "/api/teams/nobody/indexes/nothing/search"} {
				rec := send(server, http.MethodOptions, path, "", "", map[string]string{
					"Origin": "https://any.example", "Access-Control-Request-Method": "POST",
					"Access-Control-Request-Headers": "authorization, content-type"})
				Expect(rec.Code).To(Equal(http.StatusNoContent))
				Expect(rec.Header().Get("Access-Control-Allow-Origin")).To(Equal("https://any.example"))
				Expect(rec.Header().Get("Access-Control-Allow-Headers")).To(Equal("Authorization, Content-Type"))
				Expect(rec.Header().Get("Access-Control-Allow-Methods")).To(Equal("POST, OPTIONS"))
			}
		})
	})
})
