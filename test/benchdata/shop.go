package benchdata

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
)

// The recommendation benchmark's shop: a catalog with planted structure and orders drawn
// from it, the same for every call.
//
//   - Categories come in complementary pairs (2k and 2k+1, phones and their cases): each
//     group of near-duplicates of a category has a twin group in the other category of its
//     pair, whose products complement it.
//   - A group holds ShopGroupSize near-duplicates: products sharing two model words in
//     their names and descriptions, a brand and the category's word, told apart by a
//     variant word (colours, sizes) that products of every category use.
//   - An order holds a main product (drawn from a long-tailed popularity), most often one
//     complement of it (its twin in the complementary group, or another product of that
//     group), sometimes one of 30 best sellers found in every kind of order, and sometimes a
//     product drawn at random; its items are shuffled.
const (
	ShopCategories        = 84
	ShopGroupsPerCategory = 20
	ShopGroupSize         = 12
	ShopProducts          = ShopCategories * ShopGroupsPerCategory * ShopGroupSize
	shopBestSellers       = 30
)

// Shop is the benchmark's catalog and orders.
type Shop struct {
	Products []json.RawMessage
	// Group is each product's near-duplicate group, Category its category.
	Group    map[string]int
	Category map[string]string
	// Orders are the products of each order, in the order a shopper put them in.
	Orders [][]string
}

// NewShop generates the shop with orders orders.
func NewShop(orders int) Shop {
	rng := rand.New(rand.NewPCG(23, 5))
	words := newWords(rng)
	s := Shop{Group: map[string]int{}, Category: map[string]string{}}
	for c := 0; c < ShopCategories; c++ {
		for g := 0; g < ShopGroupsPerCategory; g++ {
			s.addGroup(rng, words, c, g)
		}
	}
	s.Orders = drawOrders(rng, orders)
	return s
}

// ShopProductID names product i of group g of category c.
func ShopProductID(c, g, i int) string { return fmt.Sprintf("c%02d-g%02d-%02d", c, g, i) }

func (s *Shop) addGroup(rng *rand.Rand, w words, c, g int) {
	group := c*ShopGroupsPerCategory + g
	model := []string{w.model[2*group], w.model[2*group+1]}
	brand := w.brand[rng.IntN(len(w.brand))]
	for i := 0; i < ShopGroupSize; i++ {
		id := ShopProductID(c, g, i)
		variant := w.variant[rng.IntN(len(w.variant))]
		desc := make([]string, 0, 12)
		for j := 0; j < 8; j++ {
			desc = append(desc, w.filler[rng.IntN(len(w.filler))])
		}
		desc = append(desc, model[0], w.category[c], model[1])
		rng.Shuffle(len(desc), func(a, b int) { desc[a], desc[b] = desc[b], desc[a] })
		rec, _ := json.Marshal(map[string]any{
			"objectID": id, "name": strings.Join([]string{brand, model[0], model[1], w.category[c], variant}, " "),
			"description": strings.Join(desc, " "), "category": w.category[c], "brand": brand,
			"price": float64(500+rng.IntN(50000)) / 100, "inStock": rng.IntN(10) > 0,
		})
		s.Products = append(s.Products, rec)
		s.Group[id], s.Category[id] = group, w.category[c]
	}
}

// words are the shop's vocabulary: made-up words, so that no English stem or stop word
// joins two of them.
type words struct {
	category, model, brand, variant, filler []string
}

func newWords(rng *rand.Rand) words {
	seen := map[string]bool{}
	take := func(n int) []string {
		out := make([]string, 0, n)
		for len(out) < n {
			w := pseudoWord(rng)
			if !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
		return out
	}
	return words{category: take(ShopCategories), model: take(2 * ShopCategories * ShopGroupsPerCategory),
		brand: take(40), variant: take(16), filler: take(300)}
}

func pseudoWord(rng *rand.Rand) string {
	const consonants, vowels = "bdfgklmnprstvz", "aeiou"
	var b strings.Builder
	for i := 0; i < 3+rng.IntN(2); i++ {
		b.WriteByte(consonants[rng.IntN(len(consonants))])
		b.WriteByte(vowels[rng.IntN(len(vowels))])
	}
	return b.String()
}

// drawOrders draws orders over the products by a long-tailed popularity.
func drawOrders(rng *rand.Rand, n int) [][]string {
	popular := popularity(rng)
	best := make([]int, shopBestSellers)
	for i := range best {
		best[i] = rng.IntN(ShopProducts)
	}
	orders := make([][]string, n)
	for o := range orders {
		main := popular.draw(rng)
		items := []int{main}
		if rng.Float64() < 0.85 {
			items = append(items, complementOf(rng, main))
		}
		if rng.Float64() < 0.4 {
			items = append(items, best[rng.IntN(len(best))])
		}
		if rng.Float64() < 0.2 {
			items = append(items, rng.IntN(ShopProducts))
		}
		rng.Shuffle(len(items), func(a, b int) { items[a], items[b] = items[b], items[a] })
		orders[o] = idsOf(items)
	}
	return orders
}

// complementOf is a product of the group complementing product p's: its twin (the same
// place in the group) seven times in ten, else any of the group.
func complementOf(rng *rand.Rand, p int) int {
	c, g, i := p/(ShopGroupsPerCategory*ShopGroupSize), (p/ShopGroupSize)%ShopGroupsPerCategory, p%ShopGroupSize
	if rng.Float64() >= 0.7 {
		i = rng.IntN(ShopGroupSize)
	}
	return ((c^1)*ShopGroupsPerCategory+g)*ShopGroupSize + i
}

func idsOf(items []int) []string {
	seen := map[int]bool{}
	var out []string
	for _, p := range items {
		if !seen[p] {
			seen[p] = true
			out = append(out, ShopProductID(p/(ShopGroupsPerCategory*ShopGroupSize), (p/ShopGroupSize)%ShopGroupsPerCategory, p%ShopGroupSize))
		}
	}
	return out
}

// weights draws products with probability 1/(rank+20)^0.8 of a random ranking: the most
// popular product is the main product of about 0.3% of orders, the median one of 1 in
// 40,000.
type weights struct {
	cumulative []float64
	product    []int
}

func popularity(rng *rand.Rand) weights {
	w := weights{cumulative: make([]float64, ShopProducts), product: rng.Perm(ShopProducts)}
	sum := 0.0
	for r := range w.cumulative {
		sum += 1 / math.Pow(float64(r+20), 0.8)
		w.cumulative[r] = sum
	}
	return w
}

func (w weights) draw(rng *rand.Rand) int {
	x := rng.Float64() * w.cumulative[len(w.cumulative)-1]
	return w.product[sort.SearchFloat64s(w.cumulative, x)]
}
