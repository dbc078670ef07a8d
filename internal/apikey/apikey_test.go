package apikey_test

import (
	"strings"
	"testing"

	"github.com/aislehq/aisle/internal/apikey"
)

func TestNewKeysAreWellFormedUniqueAndHashed(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		key, err := apikey.New()
		if err != nil {
			t.Fatal(err)
		}
		if !apikey.WellFormed(key) {
			t.Fatalf("new key %q is not well formed", key)
		}
		if seen[key] {
			t.Fatalf("key %q issued twice", key)
		}
		seen[key] = true
		if !apikey.Matches(key, apikey.Hash(key)) {
			t.Fatal("a key does not match its own hash")
		}
		if !strings.HasPrefix(key, apikey.Prefix(key)) || len(apikey.Prefix(key)) != 12 {
			t.Fatalf("prefix %q of %q", apikey.Prefix(key), key)
		}
	}
}

func TestMalformedKeysAreRefused(t *testing.T) {
	key, _ := apikey.New()
	for _, bad := range []string{"", "aisle_", key[:len(key)-1], "other_" + key[6:], key + "x", strings.Replace(key, key[8:9], "*", 1)} {
		if apikey.WellFormed(bad) {
			t.Errorf("%q accepted as well formed", bad)
		}
	}
	other, _ := apikey.New()
	if apikey.Matches(other, apikey.Hash(key)) {
		t.Error("another key matches the hash")
	}
}
