package apiserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// A write is acknowledged once the Kubernetes API stored it, while each replica's
// informer learns of it a moment later. Each round writes on one replica and reads at
// once on the other, then on the same one: enough rounds that a read served from the
// informer cache would answer the previous state in some of them.
const readWriteRounds = 25

var _ = Describe("Reading your own writes across two replicas (issue 20, item 6)", func() {
	var ci catalogIndex
	BeforeEach(func() { ci = newCatalogIndex() })

	It("answers GET /public-access with the policy a PUT or DELETE just wrote, on either replica", func() {
		for n := 1; n <= readWriteRounds; n++ {
			// 21 to 45: never the default cap of 20, which the DELETE between writes restores.
			maxHits := 20 + n
			r := call(0, http.MethodPut, ci.base+"/public-access/policy", ci.writeKey,
				map[string]any{"policy": map[string]any{"maxHits": maxHits}})
			Expect(r.status).To(Equal(http.StatusOK), string(r.body))
			expectPolicyMaxHits(ci, maxHits, fmt.Sprintf("after PUT %d", n))

			r = call(0, http.MethodDelete, ci.base+"/public-access/policy", ci.writeKey, nil)
			Expect(r.status).To(Equal(http.StatusOK), string(r.body))
			expectPolicyMaxHits(ci, 20, fmt.Sprintf("after DELETE %d", n))
		}
	})

	It("answers GET /config with the settings a PUT just wrote, on either replica", func() {
		for n := 1; n <= readWriteRounds; n++ {
			field := fmt.Sprintf("f%d", n)
			r := call(0, http.MethodPut, ci.base+"/config", ci.writeKey, map[string]any{
				"searchableFields": []any{map[string]any{"path": "name", "weight": 3}},
				"facetFields":      []string{"brand"}, "filterableFields": []string{field},
			})
			Expect(r.status).To(Equal(http.StatusOK), string(r.body))
			for _, replica := range []int{1, 0} {
				var got struct {
					FilterableFields []string `json:"filterableFields"`
				}
				r := call(replica, http.MethodGet, ci.base+"/config", ci.searchKey, nil)
				Expect(r.status).To(Equal(http.StatusOK), string(r.body))
				Expect(json.Unmarshal(r.body, &got)).To(Succeed())
				Expect(got.FilterableFields).To(Equal([]string{field}), "replica %d, round %d", replica+1, n)
			}
		}
	})
})

// expectPolicyMaxHits reads GET /public-access on the other replica, then on the writer's,
// and expects the policy's hit cap.
func expectPolicyMaxHits(ci catalogIndex, maxHits int, when string) {
	for _, replica := range []int{1, 0} {
		var got struct {
			Policy struct {
				MaxHits int `json:"maxHits"`
			} `json:"policy"`
		}
		r := call(replica, http.MethodGet, ci.base+"/public-access", ci.writeKey, nil)
		ExpectWithOffset(1, r.status).To(Equal(http.StatusOK), string(r.body))
		ExpectWithOffset(1, json.Unmarshal(r.body, &got)).To(Succeed())
		ExpectWithOffset(1, got.Policy.MaxHits).To(Equal(maxHits), "replica %d, %s", replica+1, when)
	}
}
