package benchdata

import (
	"encoding/json"
	"fmt"
	"iter"
	"math/rand/v2"
	"strings"
)

// Vocabulary is a synthetic 5,000-word vocabulary, the same for every call: Catalog draws
// descriptions from it with a Zipf distribution, and names from its 200 most common words.
var Vocabulary = func() []string {
	r := rand.New(rand.NewPCG(7, 7))
	out := make([]string, 5000)
	for i := range out {
		b := make([]byte, 3+r.IntN(7))
		for j := range b {
			b[j] = byte('a' + r.IntN(26))
		}
		out[i] = string(b)
	}
	return out
}()

var (
	nouns = strings.Fields("alpine jacket wool merino trail runner boot lamp oak desk chair linen cotton " +
		"steel kettle ceramic mug carbon bike helmet glove scarf denim canvas leather wallet")
	colors = strings.Fields("red blue green black white grey navy olive sand rust teal plum")
)

// Catalog yields n catalog records of about 1 KB, numbered from 0 (objectID sku-%06d),
// the same for every call, as the catalog stores them (with their version field): a
// description of about 700 bytes of Vocabulary's words and a product noun, a name of two
// common words and the noun, 200 brands, a price, a popularity of 1,000 values (a custom
// ranking), and a color, a category and a group of three records for faceted searches.
func Catalog(n int) iter.Seq2[int, json.RawMessage] {
	return func(yield func(int, json.RawMessage) bool) {
		rng := rand.New(rand.NewPCG(1, 2))
		zipf := rand.NewZipf(rng, 1.1, 10, uint64(len(Vocabulary)-1))
		for i := range n {
			if !yield(i, catalogRecord(rng, zipf, i)) {
				return
			}
		}
	}
}

func catalogRecord(rng *rand.Rand, zipf *rand.Zipf, i int) json.RawMessage {
	desc := make([]string, 0, 120)
	for size := 0; size < 700; {
		w := Vocabulary[zipf.Uint64()]
		desc = append(desc, w)
		size += len(w) + 1
	}
	noun := nouns[rng.IntN(len(nouns))]
	doc, _ := json.Marshal(map[string]any{
		"objectID":    fmt.Sprintf("sku-%06d", i),
		"name":        Vocabulary[rng.IntN(200)] + " " + Vocabulary[rng.IntN(200)] + " " + noun,
		"description": strings.Join(desc, " ") + " " + noun, "brand": fmt.Sprintf("brand-%d", rng.IntN(200)),
		"price": rng.IntN(50000) / 100, "popularity": rng.IntN(1000), "aisleVersion": 1,
		"color": colors[rng.IntN(len(colors))], "category": fmt.Sprintf("cat-%d", rng.IntN(20)), "groupId": fmt.Sprintf("g-%d", i/3),
	})
	return doc
}
