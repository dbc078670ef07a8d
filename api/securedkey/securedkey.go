// Package securedkey derives secured API keys: keys a shop's server makes from one of
// its search keys, without calling Aisle, with restrictions baked in (filters added to
// every search, a subset of the parent's indexes, an expiry, a hit cap), to hand to a
// browser. docs/secured-keys.md explains their use; web/secured-key.js is the same
// derivation for Node.js, tested against the same vectors (testdata/vectors.json).
//
// The format, version 1:
//
//	seed      = SHA-256("aisle secured key v1" || 0x00 || parent key, as its ASCII bytes)
//	key pair  = the Ed25519 key pair of seed (RFC 8032)
//	payload   = JSON object, members in this order, absent ones left out:
//	            {"v":1,"key":<public key>,"indexes":[...],"filters":{...},"validUntil":<Unix seconds>,"maxHits":<n>}
//	secured   = "aisle_sk_" + base64url(payload) + "." + base64url(Ed25519 signature of payload)
//
// base64url is RFC 4648's URL alphabet without padding; "key" is the base64url public
// key. The signature covers the payload's exact bytes, which the API server reads as
// signed and never serialises again, so no canonical JSON is needed.
//
// Only the parent key's holder has the seed. The operator computes the public key when
// it generates the parent key and puts it in the APIKey's status; the API server
// verifies with it. Neither status nor the API server's memory holds anything from which
// a secured key can be made.
package securedkey

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"time"
)

const (
	// Prefix starts every secured key.
	Prefix = "aisle_sk_"
	// Version is the format's version, the payload's "v".
	Version = 1
	// MaxLength bounds a secured key, in bytes: the API server refuses longer ones.
	MaxLength = 8192
	// MaxHits is the largest hit cap, the most hits a keyed search returns.
	MaxHits = 100
	// MaxIndexes bounds the restriction's indexes, as an APIKey's own list is bounded.
	MaxIndexes = 100
	// seedContext separates this use of the parent key from any other.
	seedContext = "aisle secured key v1\x00"
)

// Restrictions narrow what a secured key may do, on top of its parent's scope and
// indexes: a secured key never reaches more than its parent.
type Restrictions struct {
	// Filters is a filter in the search request's JSON form (for example
	// map[string]any{"field": "customerGroup", "eq": "b2b-42"}, or a json.RawMessage),
	// added with AND to every search; nil adds none.
	Filters any
	// Indexes limits the key to these of the parent's indexes; nil leaves the parent's.
	Indexes []string
	// ValidUntil is when the key stops working, to the second; zero: when the parent does.
	ValidUntil time.Time
	// MaxHits caps each search's limit (1 to 100); zero leaves the usual cap.
	MaxHits int
}

// Payload is the signed JSON of a secured key, in its members' order.
type Payload struct {
	V int `json:"v"`
	// Key is the base64url Ed25519 public key of the parent key.
	Key        string          `json:"key"`
	Indexes    []string        `json:"indexes,omitempty"`
	Filters    json.RawMessage `json:"filters,omitempty"`
	ValidUntil *int64          `json:"validUntil,omitempty"`
	MaxHits    *int            `json:"maxHits,omitempty"`
}

// ErrInvalid: the restrictions cannot make a key.
var ErrInvalid = errors.New("invalid secured key restrictions")

// indexName is the rule of a SearchIndex name.
var indexName = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// PrivateKey is the Ed25519 key of parentKey that signs its secured keys.
func PrivateKey(parentKey string) ed25519.PrivateKey {
	seed := sha256.Sum256([]byte(seedContext + parentKey))
	return ed25519.NewKeyFromSeed(seed[:])
}

// PublicKey is the base64url Ed25519 public key that verifies parentKey's secured keys:
// what the operator puts in status.
func PublicKey(parentKey string) string {
	pub := PrivateKey(parentKey).Public().(ed25519.PublicKey)
	return base64.RawURLEncoding.EncodeToString(pub)
}

// Generate derives a secured key from parentKey (the value of a search key's Secret)
// with restrictions r.
func Generate(parentKey string, r Restrictions) (string, error) {
	priv := PrivateKey(parentKey)
	payload, err := Encode(r, base64.RawURLEncoding.EncodeToString(priv.Public().(ed25519.PublicKey)))
	if err != nil {
		return "", err
	}
	sig := ed25519.Sign(priv, payload)
	key := Prefix + base64.RawURLEncoding.EncodeToString(payload) + "." + base64.RawURLEncoding.EncodeToString(sig)
	if len(key) > MaxLength {
		return "", fmt.Errorf("%w: the key would be %d bytes, over %d: shorten the filters", ErrInvalid, len(key), MaxLength)
	}
	return key, nil
}

// Encode returns the payload of restrictions r for the parent's public key: compact
// JSON without HTML escaping, as JavaScript's JSON.stringify writes it (Go escapes
// U+2028 and U+2029 where JSON.stringify does not; both verify).
func Encode(r Restrictions, publicKey string) ([]byte, error) {
	if err := check(r); err != nil {
		return nil, err
	}
	p := Payload{V: Version, Key: publicKey, Indexes: r.Indexes}
	if r.Filters != nil {
		f, err := marshal(r.Filters)
		if err != nil {
			return nil, fmt.Errorf("%w: filters: %w", ErrInvalid, err)
		}
		if len(f) == 0 || f[0] != '{' {
			return nil, fmt.Errorf("%w: filters must be a JSON object, a filter of the search request", ErrInvalid)
		}
		p.Filters = f
	}
	if !r.ValidUntil.IsZero() {
		p.ValidUntil = new(r.ValidUntil.Unix())
	}
	if r.MaxHits != 0 {
		p.MaxHits = new(r.MaxHits)
	}
	return marshal(p)
}

func check(r Restrictions) error {
	if r.Indexes != nil && len(r.Indexes) == 0 {
		return fmt.Errorf("%w: indexes is empty, which would allow no index: leave it out for all the parent's", ErrInvalid)
	}
	if len(r.Indexes) > MaxIndexes {
		return fmt.Errorf("%w: at most %d indexes", ErrInvalid, MaxIndexes)
	}
	for _, name := range r.Indexes {
		if !indexName.MatchString(name) || len(name) > 63 {
			return fmt.Errorf("%w: %q is not an index name", ErrInvalid, name)
		}
	}
	if !r.ValidUntil.IsZero() && r.ValidUntil.Unix() <= 0 {
		return fmt.Errorf("%w: validUntil must be after 1970", ErrInvalid)
	}
	if r.MaxHits < 0 || r.MaxHits > MaxHits {
		return fmt.Errorf("%w: maxHits must be between 1 and %d", ErrInvalid, MaxHits)
	}
	return nil
}

// marshal is json.Marshal without HTML escaping and without the encoder's newline.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
