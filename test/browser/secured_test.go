package browser

import (
	"fmt"
	"net/http"
	"net/url"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// docs/secured-keys.md's worked example, end to end: the operator issued the sample
// search key (and put its public key in status), a Node.js server derives a key per
// customer group with the browser client package, and a page searches with it.
var _ = Describe("A secured key derived in Node.js (issue 22)", func() {
	It("lets a page on an allowed origin search its customer group only", func(ctx SpecContext) {
		port := servePage()
		allowed := fmt.Sprintf("http://localhost:%d", port)
		other := fmt.Sprintf("http://127.0.0.1:%d", port)
		allowOrigin(ctx, allowed)

		By("writing records of two customer groups")
		base := "/api/teams/" + env.Workspace + "/indexes/products"
		Expect(call(http.MethodPost, base+"/records", env.Keys["write"],
			`{"records": [{"objectID": "sk-a", "name": "Wholesale pallet A", "brand": "b2b-42", "inStock": true}, {"objectID": "sk-b", "name": "Wholesale pallet B", "brand": "b2b-7", "inStock": true}]}`, nil)).
			To(Equal(http.StatusAccepted))

		By("deriving the key with generateSecuredKey, as the shop's server does")
		var key string
		runNode("derive.mjs", map[string]any{"parentKey": env.Keys["search"], "restrictions": map[string]any{
			"filters": map[string]any{"field": "brand", "eq": "b2b-42"}, "validUntil": time.Now().Add(time.Hour).Unix(),
		}}, &key)
		Expect(call(http.MethodPost, base+"/search", key, `{"q": "wholesale"}`, nil)).To(Equal(http.StatusOK))

		query := "/secured?" + url.Values{"api": {env.BaseURL}, "workspace": {env.Workspace}, "index": {"products"},
			"key": {key}, "q": {"wholesale pallet"}}.Encode()
		res := browse(map[string]string{"allowed": allowed + query, "other": other + query})

		Expect(res["allowed"].State).To(Equal("done"), "error: %s", res["allowed"].Error)
		Expect(res["allowed"].Hits).To(HaveLen(1))
		Expect(res["allowed"].Hits[0].Text).To(Equal("Wholesale pallet A"))

		Expect(res["other"].State).To(Equal("error"))
		Expect(res["other"].Error).To(ContainSubstring("Failed to fetch"))
	})
})
