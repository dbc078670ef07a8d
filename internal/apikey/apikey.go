// Package apikey generates API keys and derives what may be stored about them.
// Only the operator ever sees a whole key (it writes it into a Secret); everything else
// holds the SHA-256 hash and a short prefix.
package apikey

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
)

const (
	// Marker starts every key so that secret scanners and people recognise one.
	Marker = "aisle_"
	// SecretKey is the data key of the Secret that holds the key.
	SecretKey = "apiKey"
	// randomBytes is 256 bits of entropy.
	randomBytes = 32
	// prefixLen is how much of a key status shows: the marker plus six characters,
	// enough to tell keys apart in logs, far too little to guess the rest.
	prefixLen = len(Marker) + 6
)

// New returns a fresh random key.
func New() (string, error) {
	b := make([]byte, randomBytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("reading random bytes: %w", err)
	}
	return Marker + base64.RawURLEncoding.EncodeToString(b), nil
}

// Hash returns the hex SHA-256 of a key: the only form in which keys are stored.
func Hash(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// Prefix returns the start of a key that may be shown.
func Prefix(key string) string {
	if len(key) <= prefixLen {
		return key
	}
	return key[:prefixLen]
}

// WellFormed reports whether s has the shape of a key, so that garbage is refused before
// any lookup.
func WellFormed(s string) bool {
	rest, ok := strings.CutPrefix(s, Marker)
	if !ok || len(rest) != base64.RawURLEncoding.EncodedLen(randomBytes) {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(rest)
	return err == nil
}

// Matches compares a key with a stored hash in constant time.
func Matches(key, hash string) bool {
	return subtle.ConstantTimeCompare([]byte(Hash(key)), []byte(hash)) == 1
}
