package tenancy

import (
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/aislehq/aisle/api/securedkey"
	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/apikey"
	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/internal/strictjson"
)

// A secured key (docs/secured-keys.md; its format in api/securedkey) is checked in
// steps, each failure a 401: its shape (decodeSecured: prefix, length, base64url, the
// payload's strict JSON), its parent (the APIKey whose current key, or previous key in
// its overlap, has the payload's public key: Registry.Authenticate), the signature with
// that public key, the parent's own expiry and revocation, and validUntil (checkSecured).
// Whatever passes is a principal that can only search, in the parent's workspace, on
// the parent's indexes that the key names, with the key's filters and hit cap.

// securedKey is a decoded secured key, not yet verified.
type securedKey struct {
	payload   []byte
	signature []byte
	claims    securedkey.Payload
	publicKey ed25519.PublicKey
	filters   *searchquery.Filter
}

// isSecured tells a secured key from a plain one (whose random part may start with
// "sk_", but which has a fixed length secured keys never have).
func isSecured(key string) bool {
	return strings.HasPrefix(key, securedkey.Prefix) && !apikey.WellFormed(key)
}

// decodeSecured checks a secured key's shape and decodes its payload.
func decodeSecured(key string) (securedKey, error) {
	if len(key) > securedkey.MaxLength {
		return securedKey{}, fmt.Errorf("%w: longer than %d bytes", ErrInvalidSecuredKey, securedkey.MaxLength)
	}
	encPayload, encSig, ok := strings.Cut(strings.TrimPrefix(key, securedkey.Prefix), ".")
	if !ok {
		return securedKey{}, fmt.Errorf("%w: not a payload and a signature joined by a dot", ErrInvalidSecuredKey)
	}
	var k securedKey
	var err error
	if k.payload, err = base64.RawURLEncoding.Strict().DecodeString(encPayload); err != nil {
		return securedKey{}, fmt.Errorf("%w: the payload is not base64url", ErrInvalidSecuredKey)
	}
	if k.signature, err = base64.RawURLEncoding.Strict().DecodeString(encSig); err != nil || len(k.signature) != ed25519.SignatureSize {
		return securedKey{}, fmt.Errorf("%w: the signature is not %d bytes of base64url", ErrInvalidSecuredKey, ed25519.SignatureSize)
	}
	if err := k.decodeClaims(); err != nil {
		return securedKey{}, fmt.Errorf("%w: %w", ErrInvalidSecuredKey, err)
	}
	return k, nil
}

// decodeClaims reads the payload strictly: an unknown member could be a restriction this
// server does not know, so it refuses the key rather than ignore what would narrow it.
func (k *securedKey) decodeClaims() error {
	if err := strictjson.Decode(k.payload, &k.claims); err != nil {
		return fmt.Errorf("payload: %w", err)
	}
	c := k.claims
	if c.V != securedkey.Version {
		return fmt.Errorf("version %d is not one this server knows (%d)", c.V, securedkey.Version)
	}
	pub, err := base64.RawURLEncoding.Strict().DecodeString(c.Key)
	if err != nil || len(pub) != ed25519.PublicKeySize {
		return fmt.Errorf("key is not a base64url Ed25519 public key")
	}
	k.publicKey = pub
	if len(c.Indexes) > securedkey.MaxIndexes {
		return fmt.Errorf("indexes holds more than %d names", securedkey.MaxIndexes)
	}
	if c.MaxHits != nil && (*c.MaxHits < 1 || *c.MaxHits > securedkey.MaxHits) {
		return fmt.Errorf("maxHits must be between 1 and %d", securedkey.MaxHits)
	}
	if c.Filters != nil {
		k.filters = &searchquery.Filter{}
		if err := strictjson.Decode(c.Filters, k.filters); err != nil {
			return fmt.Errorf("filters: %w", err)
		}
	}
	return nil
}

// checkSecured decides whether k, a secured key whose public key is one of parent's,
// is valid at now, and returns its principal.
func checkSecured(parent *searchv1alpha1.APIKey, k securedKey, now time.Time) (Principal, error) {
	if !ed25519.Verify(k.publicKey, k.payload, k.signature) {
		return Principal{}, fmt.Errorf("%w: the signature does not match the payload", ErrInvalidSecuredKey)
	}
	issued, err := checkIssued(parent, func(i searchv1alpha1.IssuedKey) bool { return i.SecuredKeyPublicKey == k.claims.Key }, now)
	if err != nil {
		return Principal{}, err
	}
	if v := k.claims.ValidUntil; v != nil && now.Unix() >= *v {
		return Principal{}, fmt.Errorf("%w: validUntil %d has passed", ErrExpiredKey, *v)
	}
	return securedPrincipal(parent, issued, k), nil
}

// securedPrincipal is the parent's principal narrowed by the key: the search scope only
// (none when the parent lacks it), the parent's indexes the key names, its restriction.
func securedPrincipal(parent *searchv1alpha1.APIKey, issued searchv1alpha1.IssuedKey, k securedKey) Principal {
	p := principalOf(parent, issued.Prefix)
	if slices.Contains(p.Scopes, searchv1alpha1.ScopeSearch) {
		p.Scopes = []searchv1alpha1.Scope{searchv1alpha1.ScopeSearch}
	} else {
		p.Scopes = nil
	}
	if k.claims.Indexes != nil {
		p.Indexes = slices.DeleteFunc(slices.Clone(p.Indexes), func(i string) bool { return !slices.Contains(k.claims.Indexes, i) })
	}
	p.Restriction = &searchquery.Restriction{Filters: k.filters}
	if k.claims.MaxHits != nil {
		p.Restriction.MaxHits = *k.claims.MaxHits
	}
	return p
}
