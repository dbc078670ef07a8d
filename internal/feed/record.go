package feed

import (
	"errors"
	"fmt"
	"github.com/aislehq/aisle/internal/indexmapping"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// textFields are the attributes kept as they are, by their record field name.
var textFields = map[string]string{
	"title":                   "title",
	"description":             "description",
	"link":                    "link",
	"image_link":              "image",
	"brand":                   "brand",
	"gtin":                    "gtin",
	"mpn":                     "mpn",
	"google_product_category": "googleProductCategory",
	"item_group_id":           "itemGroupId",
	"color":                   "color",
	"size":                    "size",
	"gender":                  "gender",
	"age_group":               "ageGroup",
}

// availabilities are Merchant Center's values (spaces read as underscores).
var availabilities = map[string]bool{"in_stock": true, "out_of_stock": true, "preorder": true, "backorder": true}

// maxObjectIDBytes is the API's limit of an objectID.
const maxObjectIDBytes = 512

// Record maps a product's Merchant Center attributes to an Aisle record (the field
// names are in docs/feeds.md). Attributes it does not know are left out.
func Record(attrs attributes) (map[string]any, error) {
	id := attrs.first("id")
	switch {
	case id == "":
		return nil, errors.New("id is required")
	case len(id) > maxObjectIDBytes:
		return nil, fmt.Errorf("id is longer than %d bytes", maxObjectIDBytes)
	}
	rec := map[string]any{indexmapping.ObjectIDField: id}
	for attr, field := range textFields {
		if v := attrs.first(attr); v != "" {
			rec[field] = v
		}
	}
	for _, v := range attrs["additional_image_link"] {
		images, _ := rec["additionalImages"].([]string)
		rec["additionalImages"] = append(images, v)
	}
	if v := attrs.first("condition"); v != "" {
		rec["condition"] = strings.ToLower(v)
	}
	if err := prices(attrs, rec); err != nil {
		return nil, err
	}
	if v := attrs.first("availability"); v != "" {
		a := strings.ReplaceAll(strings.ToLower(v), " ", "_")
		if !availabilities[a] {
			return nil, fmt.Errorf("availability %q: one of in_stock, out_of_stock, preorder, backorder", v)
		}
		rec["availability"] = a
		rec["inStock"] = a == "in_stock"
	}
	if levels := Levels(attrs.first("product_type")); levels != nil {
		rec["productType"] = levels
	}
	for k, v := range rec {
		if s, ok := v.(string); ok && !utf8.ValidString(s) {
			return nil, fmt.Errorf("%s is not valid UTF-8", k)
		}
	}
	return rec, nil
}

// prices sets price, salePrice and currency; the two prices must share a currency.
func prices(attrs attributes, rec map[string]any) error {
	currency := ""
	for _, p := range []struct{ attr, field string }{{"price", "price"}, {"sale_price", "salePrice"}} {
		v := attrs.first(p.attr)
		if v == "" {
			continue
		}
		amount, cur, err := ParsePrice(v)
		if err != nil {
			return fmt.Errorf("%s: %w", p.attr, err)
		}
		if currency != "" && cur != currency {
			return fmt.Errorf("sale_price is in %s, price in %s", cur, currency)
		}
		currency = cur
		rec[p.field] = amount
	}
	if currency != "" {
		rec["currency"] = currency
	}
	return nil
}

var (
	amountFirst   = regexp.MustCompile(`^([0-9]+(?:\.[0-9]+)?) ?([A-Za-z]{3})$`)
	currencyFirst = regexp.MustCompile(`^([A-Za-z]{3}) ?([0-9]+(?:\.[0-9]+)?)$`)
)

// ParsePrice splits a Merchant Center price ("12.50 EUR"; "EUR 12.50" is read too) into
// its amount and ISO 4217 currency code.
func ParsePrice(s string) (float64, string, error) {
	s = strings.TrimSpace(s)
	var amount, currency string
	if m := amountFirst.FindStringSubmatch(s); m != nil {
		amount, currency = m[1], m[2]
	} else if m := currencyFirst.FindStringSubmatch(s); m != nil {
		currency, amount = m[1], m[2]
	} else {
		return 0, "", fmt.Errorf("%q is not an amount and a currency code such as 12.50 EUR", s)
	}
	f, err := strconv.ParseFloat(amount, 64)
	if err != nil {
		return 0, "", fmt.Errorf("%q: %w", s, err)
	}
	return f, strings.ToUpper(currency), nil
}

// Levels turns a product_type path ("Home > Kitchen > Knives") into hierarchical facet
// levels as InstantSearch's hierarchicalMenu reads them: lvl0 "Home", lvl1
// "Home > Kitchen", lvl2 "Home > Kitchen > Knives". Empty steps are dropped; an empty
// path has no levels (nil).
func Levels(path string) map[string]string {
	var steps []string
	for _, s := range strings.Split(path, ">") {
		if s = strings.TrimSpace(s); s != "" {
			steps = append(steps, s)
		}
	}
	if len(steps) == 0 {
		return nil
	}
	levels := make(map[string]string, len(steps))
	for i := range steps {
		levels["lvl"+strconv.Itoa(i)] = strings.Join(steps[:i+1], " > ")
	}
	return levels
}
