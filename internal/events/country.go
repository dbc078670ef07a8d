package events

import (
	"fmt"
	"net"
	"strings"

	"github.com/oschwald/maxminddb-golang"
)

// Countries finds a browser's country: from a header a trusted proxy in front of the
// API server sets (for example CloudFront-Viewer-Country), else from a MaxMind-format
// country database, else unknown. The address is only looked up, never kept.
type Countries struct {
	// Header is the trusted proxy's country header; empty when there is none.
	Header string
	db     *maxminddb.Reader
}

// OpenCountries configures the resolver; dbPath may be empty.
func OpenCountries(header, dbPath string) (*Countries, error) {
	c := &Countries{Header: header}
	if dbPath == "" {
		return c, nil
	}
	db, err := maxminddb.Open(dbPath)
	if err != nil {
		return nil, fmt.Errorf("opening the country database %s: %w", dbPath, err)
	}
	c.db = db
	return c, nil
}

// Close releases the database.
func (c *Countries) Close() error {
	if c == nil || c.db == nil {
		return nil
	}
	return c.db.Close()
}

type countryRecord struct {
	Country struct {
		ISOCode string `maxminddb:"iso_code"`
	} `maxminddb:"country"`
}

// Of returns the upper-case ISO 3166-1 alpha-2 code of a browser, given the value of
// the trusted header (read by the caller) and its address; "" when unknown.
func (c *Countries) Of(headerValue, ip string) string {
	if c == nil {
		return ""
	}
	if c.Header != "" {
		return alpha2(headerValue)
	}
	if c.db == nil {
		return ""
	}
	addr := net.ParseIP(ip)
	if addr == nil {
		return ""
	}
	var rec countryRecord
	if err := c.db.Lookup(addr, &rec); err != nil {
		return ""
	}
	return alpha2(rec.Country.ISOCode)
}

// alpha2 keeps a two-letter code, upper case; anything else (XX, T1 and the like
// included) is unknown.
func alpha2(code string) string {
	code = strings.ToUpper(strings.TrimSpace(code))
	if len(code) != 2 || code[0] < 'A' || code[0] > 'Z' || code[1] < 'A' || code[1] > 'Z' || code == "XX" {
		return ""
	}
	return code
}
