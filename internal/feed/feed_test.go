package feed

import (
	"errors"
	"io"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// readAll reads a feed to its end: the records, the skipped items' errors and the error
// that ended it, if any.
func readAll(r Reader) (recs []string, lines []int, skipped []string, fatal error) {
	for {
		p, err := r.Next()
		var itemErr *ItemError
		switch {
		case errors.Is(err, io.EOF):
			return recs, lines, skipped, nil
		case errors.As(err, &itemErr):
			skipped = append(skipped, itemErr.Error())
		case err != nil:
			return recs, lines, skipped, err
		default:
			recs = append(recs, string(p.Record))
			lines = append(lines, p.Line)
		}
	}
}

const rss = `<?xml version="1.0"?>
<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">
<channel><title>Shop</title><link>https://shop.example/</link>
<item>
  <title>Trail shoe &amp; more</title>
  <link>https://shop.example/p/1</link>
  <description>Grippy&nbsp;sole</description>
  <g:id>sku-1</g:id>
  <g:price>12.50 EUR</g:price>
  <g:sale_price>9.99 EUR</g:sale_price>
  <g:availability>in stock</g:availability>
  <g:product_type>Apparel &gt; Shoes &gt; Trail</g:product_type>
  <g:item_group_id>G1</g:item_group_id>
  <g:shipping><g:country>DE</g:country><g:price>4.95 EUR</g:price></g:shipping>
  <g:additional_image_link>https://shop.example/a.jpg</g:additional_image_link>
  <g:additional_image_link>https://shop.example/b.jpg</g:additional_image_link>
  <other:thing xmlns:other="urn:x">ignored</other:thing>
</item>
<item>
  <g:title>No id</g:title>
</item>
<item>
  <g:id>sku-3</g:id>
  <g:price>twelve</g:price>
</item>
<item><g:id>sku-4</g:id><g:age_group>kids</g:age_group><g:condition>NEW</g:condition></item>
</channel></rss>`

const atom = `<?xml version="1.0"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:g="http://base.google.com/ns/1.0">
<title>Shop</title>
<entry>
  <id>tag:shop.example,2026:1</id>
  <title>Rain jacket</title>
  <link href="https://shop.example/p/j"/>
  <summary>Keeps dry</summary>
  <g:id>J-1</g:id>
  <g:price>USD 80</g:price>
  <g:brand>Acme</g:brand>
</entry>
</feed>`

var _ = Describe("An RSS 2.0 feed", func() {
	It("gives each item's record, and skips a malformed item naming its line", func() {
		recs, lines, skipped, err := readAll(Open(strings.NewReader(rss)))
		Expect(err).NotTo(HaveOccurred())
		Expect(recs).To(HaveLen(2))
		Expect(recs[0]).To(MatchJSON(`{
			"objectID": "sku-1", "title": "Trail shoe & more", "link": "https://shop.example/p/1",
			"description": "Grippy` + "\u00a0" + `sole", "price": 12.5, "salePrice": 9.99, "currency": "EUR",
			"availability": "in_stock", "inStock": true, "itemGroupId": "G1",
			"productType": {"lvl0": "Apparel", "lvl1": "Apparel > Shoes", "lvl2": "Apparel > Shoes > Trail"},
			"additionalImages": ["https://shop.example/a.jpg", "https://shop.example/b.jpg"]
		}`))
		Expect(recs[1]).To(MatchJSON(`{"objectID": "sku-4", "ageGroup": "kids", "condition": "new"}`))
		Expect(lines).To(Equal([]int{4, 26}))
		Expect(skipped).To(Equal([]string{
			"line 19: id is required",
			`line 22: price: "twelve" is not an amount and a currency code such as 12.50 EUR`,
		}))
	})

	It("ends at XML that is not well-formed, naming the line", func() {
		_, _, _, err := readAll(Open(strings.NewReader("<rss>\n<channel>\n<item><g:id>1</g:id></item>\n<item>\n</rss>")))
		Expect(err).To(MatchError(HavePrefix("line ")))
		Expect(err).To(MatchError(ContainSubstring("not well-formed XML")))
	})
})

var _ = Describe("An Atom feed", func() {
	It("takes g:id, not the entry's Atom id, and the link's href and summary", func() {
		recs, _, skipped, err := readAll(Open(strings.NewReader(atom)))
		Expect(err).NotTo(HaveOccurred())
		Expect(skipped).To(BeEmpty())
		Expect(recs).To(HaveExactElements(MatchJSON(`{
			"objectID": "J-1", "title": "Rain jacket", "link": "https://shop.example/p/j",
			"description": "Keeps dry", "price": 80, "currency": "USD", "brand": "Acme"
		}`)))
	})
})

var _ = Describe("A tab-separated feed", func() {
	It("reads the header's attributes, and skips a malformed line naming its number", func() {
		tsv := "\ufeffid\tg:title\tPrice\timage link\n" +
			"a-1\t\"Mug \"\"XL\"\"\"\t4.5 EUR\thttps://x/a.jpg\n" +
			"\n" +
			"a-2\tshort line\n" +
			"a-3\tPlate\t3 GBP\t\r\n"
		recs, lines, skipped, err := readAll(Open(strings.NewReader(tsv)))
		Expect(err).NotTo(HaveOccurred())
		Expect(recs).To(HaveExactElements(
			MatchJSON(`{"objectID": "a-1", "title": "Mug \"XL\"", "price": 4.5, "currency": "EUR", "image": "https://x/a.jpg"}`),
			MatchJSON(`{"objectID": "a-3", "title": "Plate", "price": 3, "currency": "GBP"}`),
		))
		Expect(lines).To(Equal([]int{2, 5}))
		Expect(skipped).To(Equal([]string{"line 4: 2 values for 4 columns"}))
	})
	It("refuses a header without an id column", func() {
		_, _, _, err := readAll(Open(strings.NewReader("title\tprice\nx\t1 EUR\n")))
		Expect(err).To(MatchError("line 1: the header has no id column"))
	})
})

var _ = Describe("Mapping attributes", func() {
	DescribeTable("refuses what cannot be a record",
		func(attrs attributes, msg string) {
			_, err := Record(attrs)
			Expect(err).To(MatchError(msg))
		},
		Entry("no id", attributes{"title": {"x"}}, "id is required"),
		Entry("an id too long", attributes{"id": {strings.Repeat("x", 513)}}, "id is longer than 512 bytes"),
		Entry("prices in two currencies", attributes{"id": {"1"}, "price": {"10 EUR"}, "sale_price": {"8 USD"}}, "sale_price is in USD, price in EUR"),
		Entry("an unknown availability", attributes{"id": {"1"}, "availability": {"maybe"}}, `availability "maybe": one of in_stock, out_of_stock, preorder, backorder`),
		Entry("text that is not UTF-8", attributes{"id": {"1"}, "title": {"\xff"}}, "title is not valid UTF-8"),
	)
	DescribeTable("splits a price into amount and currency",
		func(in string, amount float64, currency string) {
			a, c, err := ParsePrice(in)
			Expect(err).NotTo(HaveOccurred())
			Expect(a).To(Equal(amount))
			Expect(c).To(Equal(currency))
		},
		Entry("amount first", "12.50 EUR", 12.5, "EUR"),
		Entry("currency first", "EUR 12.50", 12.5, "EUR"),
		Entry("no space, lowercase", "7usd", 7.0, "USD"),
		Entry("spaces around", " 3.00 GBP ", 3.0, "GBP"),
	)
	DescribeTable("turns a product_type path into hierarchical levels",
		func(path string, want map[string]string) {
			if want == nil {
				Expect(Levels(path)).To(BeNil())
				return
			}
			Expect(Levels(path)).To(Equal(want))
		},
		Entry("three steps", "Home > Kitchen > Knives", map[string]string{"lvl0": "Home", "lvl1": "Home > Kitchen", "lvl2": "Home > Kitchen > Knives"}),
		Entry("one step", "Toys", map[string]string{"lvl0": "Toys"}),
		Entry("empty steps dropped", " > A >> B ", map[string]string{"lvl0": "A", "lvl1": "A > B"}),
		Entry("nothing", "  ", nil),
	)
})
