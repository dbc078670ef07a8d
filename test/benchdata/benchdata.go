// Package benchdata holds the product records the catalog benchmarks write, so that the
// catalog service's and the API server's figures are measured on the same documents.
package benchdata

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Products returns n product records of about 1 KB each (objectID, name, an
// 800-character description, brand, price, stock), the same for every call.
func Products(n int) []json.RawMessage {
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("alpine jacket wool merino trail runner boot lamp oak desk chair linen cotton " +
		"steel kettle ceramic mug carbon bike helmet glove scarf denim canvas leather wallet")
	out := make([]json.RawMessage, n)
	for i := range out {
		desc := make([]string, 0, 120)
		for size := 0; size < 800; size += len(desc[len(desc)-1]) + 1 {
			desc = append(desc, words[rng.IntN(len(words))])
		}
		out[i], _ = json.Marshal(map[string]any{
			"objectID": fmt.Sprintf("sku-%06d", i), "name": words[rng.IntN(len(words))] + " " + words[rng.IntN(len(words))],
			"description": strings.Join(desc, " "), "brand": fmt.Sprintf("brand-%d", rng.IntN(200)),
			"price": rng.IntN(50000) / 100, "stock": rng.IntN(500),
		})
	}
	return out
}
