package events_test

import (
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/maxmind/mmdbwriter"
	"github.com/maxmind/mmdbwriter/mmdbtype"

	"github.com/aislehq/aisle/internal/events"
)

func TestDeviceTypes(t *testing.T) {
	cases := map[string]string{
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36":                         "desktop",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15":                      "desktop",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1": "mobile",
		"Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36":                   "mobile",
		"Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1":          "tablet",
		"Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36":                          "tablet",
		"": "other",
	}
	for ua, want := range cases {
		if got := events.Device(ua); got != want {
			t.Errorf("Device(%q) = %q, want %q", ua, got, want)
		}
	}
}

func TestRealBrowsersAreRecorded(t *testing.T) {
	for _, ua := range []string{
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
		"Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
	} {
		if r := events.DropReason(ua); r != "" {
			t.Errorf("DropReason(%q) = %q, want a person's browser", ua, r)
		}
	}
}

// countryDB writes a tiny MaxMind-format country database mapping 81.2.69.0/24 to GB
// and 2001:db8::/32 to DE.
func countryDB(t *testing.T) string {
	t.Helper()
	tree, err := mmdbwriter.New(mmdbwriter.Options{DatabaseType: "GeoIP2-Country", IncludeReservedNetworks: true})
	if err != nil {
		t.Fatal(err)
	}
	for cidr, code := range map[string]string{"81.2.69.0/24": "GB", "2001:db8::/32": "de"} {
		_, network, err := net.ParseCIDR(cidr)
		if err != nil {
			t.Fatal(err)
		}
		rec := mmdbtype.Map{"country": mmdbtype.Map{"iso_code": mmdbtype.String(code)}}
		if err := tree.Insert(network, rec); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "countries.mmdb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := tree.WriteTo(f); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCountries(t *testing.T) {
	db, err := events.OpenCountries("", countryDB(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	header := &events.Countries{Header: "CloudFront-Viewer-Country"}
	cases := []struct {
		name       string
		c          *events.Countries
		header, ip string
		want       string
	}{
		{"an address in the database", db, "", "81.2.69.142", "GB"},
		{"an IPv6 address, code upper-cased", db, "", "2001:db8::1", "DE"},
		{"an address not in the database", db, "", "192.0.2.1", ""},
		{"not an address", db, "", "nope", ""},
		{"the trusted header", header, "ch", "81.2.69.142", "CH"},
		{"the header's unknown country", header, "XX", "81.2.69.142", ""},
		{"a header that is no code", header, "Switzerland", "", ""},
		{"nothing configured", &events.Countries{}, "CH", "81.2.69.142", ""},
	}
	for _, c := range cases {
		if got := c.c.Of(c.header, c.ip); got != c.want {
			t.Errorf("%s: Of(%q, %q) = %q, want %q", c.name, c.header, c.ip, got, c.want)
		}
	}
}
