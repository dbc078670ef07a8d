// Package feedsample makes sample Google Merchant Center feeds of any size, the same
// for the same seed: products in variant groups, with prices, sale prices, product
// type paths and the apparel attributes. hack/feedgen writes one; tests make theirs.
package feedsample

import (
	"encoding/xml"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
)

// Item is one product of a sample feed, by Merchant Center attribute.
type Item struct {
	ID, Title, Description, Link, ImageLink string
	Price, SalePrice                        string
	Availability, Brand, GTIN, MPN          string
	Condition, GoogleProductCategory        string
	ProductType, ItemGroupID                string
	Color, Size, Gender, AgeGroup           string
}

var (
	brands     = []string{"Acme", "Globex", "Initech", "Umbrella", "Stark", "Wayne", "Hooli", "Vandelay"}
	colors     = []string{"black", "white", "red", "blue", "green", "grey"}
	sizes      = []string{"XS", "S", "M", "L", "XL"}
	genders    = []string{"male", "female", "unisex"}
	ageGroups  = []string{"adult", "kids"}
	conditions = []string{"new", "new", "new", "refurbished", "used"}
	stock      = []string{"in_stock", "in_stock", "in_stock", "out_of_stock", "preorder", "backorder"}
	kinds      = []struct{ noun, path, category string }{
		{"running shoe", "Apparel & Accessories > Shoes > Running", "187"},
		{"trail shoe", "Apparel & Accessories > Shoes > Trail", "187"},
		{"rain jacket", "Apparel & Accessories > Clothing > Outerwear > Jackets", "5598"},
		{"t-shirt", "Apparel & Accessories > Clothing > Shirts & Tops", "212"},
		{"backpack", "Luggage & Bags > Backpacks", "100"},
		{"chef knife", "Home & Garden > Kitchen & Dining > Knives", "4490"},
		{"espresso cup", "Home & Garden > Kitchen & Dining > Tableware > Cups", "674"},
		{"desk lamp", "Home & Garden > Lighting > Lamps", "4636"},
	}
	adjectives = []string{"light", "classic", "pro", "essential", "waterproof", "organic", "compact", "warm"}
)

// Items returns n products; every 1 to 4 consecutive products are variants (colors and
// sizes) of one group.
func Items(n int, seed uint64) []Item {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	items := make([]Item, 0, n)
	for group := 1; len(items) < n; group++ {
		kind := kinds[rng.IntN(len(kinds))]
		brand := brands[rng.IntN(len(brands))]
		adj := adjectives[rng.IntN(len(adjectives))]
		cents := 500 + rng.IntN(30000)
		variants := 1 + rng.IntN(4)
		for v := 0; v < variants && len(items) < n; v++ {
			id := fmt.Sprintf("P%06d-%d", group, v+1)
			color, size := colors[rng.IntN(len(colors))], sizes[rng.IntN(len(sizes))]
			it := Item{
				ID:                    id,
				Title:                 fmt.Sprintf("%s %s %s, %s %s", brand, adj, kind.noun, color, size),
				Description:           fmt.Sprintf("A %s %s by %s in %s, size %s.", adj, kind.noun, brand, color, size),
				Link:                  "https://shop.example/p/" + strings.ToLower(id),
				ImageLink:             "https://shop.example/img/" + strings.ToLower(id) + ".jpg",
				Price:                 fmt.Sprintf("%d.%02d EUR", cents/100, cents%100),
				Availability:          stock[rng.IntN(len(stock))],
				Brand:                 brand,
				GTIN:                  fmt.Sprintf("40%011d", group*10+v),
				MPN:                   fmt.Sprintf("%s-%05d-%d", strings.ToUpper(brand[:3]), group, v+1),
				Condition:             conditions[rng.IntN(len(conditions))],
				GoogleProductCategory: kind.category,
				ProductType:           kind.path,
				ItemGroupID:           fmt.Sprintf("G%06d", group),
				Color:                 color,
				Size:                  size,
				Gender:                genders[rng.IntN(len(genders))],
				AgeGroup:              ageGroups[rng.IntN(len(ageGroups))],
			}
			if rng.IntN(4) == 0 {
				sale := cents * 8 / 10
				it.SalePrice = fmt.Sprintf("%d.%02d EUR", sale/100, sale%100)
			}
			items = append(items, it)
		}
	}
	return items
}

// fields are the attributes in feed order, as (name, value) pairs.
func (it Item) fields() [][2]string {
	return [][2]string{
		{"id", it.ID}, {"title", it.Title}, {"description", it.Description}, {"link", it.Link},
		{"image_link", it.ImageLink}, {"price", it.Price}, {"sale_price", it.SalePrice},
		{"availability", it.Availability}, {"brand", it.Brand}, {"gtin", it.GTIN}, {"mpn", it.MPN},
		{"condition", it.Condition}, {"google_product_category", it.GoogleProductCategory},
		{"product_type", it.ProductType}, {"item_group_id", it.ItemGroupID}, {"color", it.Color},
		{"size", it.Size}, {"gender", it.Gender}, {"age_group", it.AgeGroup},
	}
}

// WriteRSS writes the items as an RSS 2.0 feed with the g: namespace, one attribute a line.
func WriteRSS(w io.Writer, items []Item) error {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">` + "\n<channel>\n")
	b.WriteString("<title>Sample shop</title>\n<link>https://shop.example/</link>\n<description>A sample feed</description>\n")
	for _, it := range items {
		b.WriteString("<item>\n")
		for _, f := range it.fields() {
			if f[1] == "" {
				continue
			}
			b.WriteString("<g:" + f[0] + ">")
			if err := xml.EscapeText(&stringWriter{&b}, []byte(f[1])); err != nil {
				return err
			}
			b.WriteString("</g:" + f[0] + ">\n")
		}
		b.WriteString("</item>\n")
		if b.Len() > 1<<16 {
			if _, err := io.WriteString(w, b.String()); err != nil {
				return err
			}
			b.Reset()
		}
	}
	b.WriteString("</channel>\n</rss>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteTSV writes the items as a tab-separated text feed.
func WriteTSV(w io.Writer, items []Item) error {
	var b strings.Builder
	for i, f := range (Item{}).fields() {
		if i > 0 {
			b.WriteByte('\t')
		}
		b.WriteString(f[0])
	}
	b.WriteByte('\n')
	for _, it := range items {
		for i, f := range it.fields() {
			if i > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(f[1])
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

type stringWriter struct{ b *strings.Builder }

func (s *stringWriter) Write(p []byte) (int, error) { return s.b.Write(p) }
