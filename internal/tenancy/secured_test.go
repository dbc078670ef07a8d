package tenancy

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/aislehq/aisle/api/securedkey"
	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/apikey"
	"github.com/aislehq/aisle/internal/searchquery"
)

var securedNow = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// parentOf is an APIKey whose current key is current and whose previous key, revoked
// at revokeAt, is previous.
func parentOf(current, previous string, revokeAt time.Time, scopes ...searchv1alpha1.Scope) *searchv1alpha1.APIKey {
	k := &searchv1alpha1.APIKey{ObjectMeta: metav1.ObjectMeta{Namespace: "acme", Name: "shop-server"}}
	k.Spec.Scopes = scopes
	k.Spec.Indexes = []string{"products", "staff-only"}
	k.Status.Current = &searchv1alpha1.IssuedKey{Prefix: apikey.Prefix(current), Hash: apikey.Hash(current), SecuredKeyPublicKey: securedkey.PublicKey(current)}
	k.Status.Previous = []searchv1alpha1.IssuedKey{{Prefix: apikey.Prefix(previous), Hash: apikey.Hash(previous),
		SecuredKeyPublicKey: securedkey.PublicKey(previous), RevokeAt: &metav1.Time{Time: revokeAt}}}
	return k
}

func mustGenerate(t *testing.T, parent string, r securedkey.Restrictions) string {
	t.Helper()
	key, err := securedkey.Generate(parent, r)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// check decodes and checks key against parent, as Authenticate does once it found it.
func check(parent *searchv1alpha1.APIKey, key string) (Principal, error) {
	sk, err := decodeSecured(key)
	if err != nil {
		return Principal{}, err
	}
	return checkSecured(parent, sk, securedNow)
}

func TestASecuredKeyIsItsParentNarrowed(t *testing.T) {
	current, _ := apikey.New()
	previous, _ := apikey.New()
	parent := parentOf(current, previous, securedNow.Add(time.Hour), "search", "write")
	key := mustGenerate(t, current, securedkey.Restrictions{
		Filters: map[string]any{"field": "customerGroup", "eq": "b2b-42"}, Indexes: []string{"products", "elsewhere"},
		ValidUntil: securedNow.Add(time.Hour), MaxHits: 7,
	})
	p, err := check(parent, key)
	if err != nil {
		t.Fatal(err)
	}
	want := Principal{Workspace: "acme", KeyName: "shop-server", Prefix: apikey.Prefix(current),
		Scopes: []searchv1alpha1.Scope{"search"}, Indexes: []string{"products"},
		Restriction: &searchquery.Restriction{Filters: &searchquery.Filter{Field: "customerGroup", Eq: "b2b-42"}, MaxHits: 7}}
	if !reflect.DeepEqual(p, want) {
		t.Fatalf("got %+v (restriction %+v), want %+v", p, *p.Restriction, want)
	}
	if !isSecured(key) || isSecured(current) {
		t.Fatal("isSecured does not tell a secured key from a plain one")
	}
}

func TestASecuredKeyWithoutIndexesHasItsParentsAndOfAParentWithoutSearchNoScope(t *testing.T) {
	current, _ := apikey.New()
	previous, _ := apikey.New()
	p, err := check(parentOf(current, previous, securedNow.Add(time.Hour), "write"), mustGenerate(t, current, securedkey.Restrictions{}))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Scopes) != 0 || strings.Join(p.Indexes, ",") != "products,staff-only" || p.Restriction == nil {
		t.Fatalf("got scopes %v, indexes %v, restriction %v", p.Scopes, p.Indexes, p.Restriction)
	}
	if err := Authorize(p, "acme", "products", true, Need("search").AlsoSecured()); !errors.Is(err, ErrScopeDenied) {
		t.Fatalf("a secured key of a write key searched: %v", err)
	}
}

func TestSecuredKeysThatDoNotHold(t *testing.T) {
	current, _ := apikey.New()
	previous, _ := apikey.New()
	stranger, _ := apikey.New()
	parent := parentOf(current, previous, securedNow.Add(time.Hour), "search")
	revoked := parentOf(current, previous, securedNow, "search")
	expiredParent := parentOf(current, previous, securedNow.Add(time.Hour), "search")
	expiredParent.Spec.ExpiresAt = &metav1.Time{Time: securedNow}
	valid := mustGenerate(t, current, securedkey.Restrictions{Filters: map[string]any{"field": "g", "eq": "a"}})
	payload, sig, _ := strings.Cut(strings.TrimPrefix(valid, securedkey.Prefix), ".")
	otherPayload, _, _ := strings.Cut(strings.TrimPrefix(mustGenerate(t, current, securedkey.Restrictions{Filters: map[string]any{"field": "g", "eq": "b"}}), securedkey.Prefix), ".")
	flipped := []byte(sig)
	flipped[3] ^= 1
	cases := []struct {
		name   string
		parent *searchv1alpha1.APIKey
		key    string
		want   error
	}{
		{"the previous key's, in its overlap", parent, mustGenerate(t, previous, securedkey.Restrictions{}), nil},
		{"valid until a second from now", parent, mustGenerate(t, current, securedkey.Restrictions{ValidUntil: securedNow.Add(time.Second)}), nil},
		{"valid until now", parent, mustGenerate(t, current, securedkey.Restrictions{ValidUntil: securedNow}), ErrExpiredKey},
		{"of an expired parent", expiredParent, valid, ErrExpiredKey},
		{"of a previous key whose overlap ended", revoked, mustGenerate(t, previous, securedkey.Restrictions{}), ErrRevokedKey},
		{"another payload under the signature", parent, securedkey.Prefix + otherPayload + "." + sig, ErrInvalidSecuredKey},
		{"a signature with a bit flipped", parent, securedkey.Prefix + payload + "." + string(flipped), ErrInvalidSecuredKey},
		{"signed by a stranger claiming the parent", parent, forge(t, stranger, securedkey.PublicKey(current)), ErrInvalidSecuredKey},
	}
	for _, c := range cases {
		if _, got := check(c.parent, c.key); !errors.Is(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

// forge signs a payload naming claimed with signer's key pair.
func forge(t *testing.T, signer, claimed string) string {
	payload := []byte(`{"v":1,"key":"` + claimed + `"}`)
	sig := signWith(signer, payload)
	return securedkey.Prefix + base64.RawURLEncoding.EncodeToString(payload) + "." + base64.RawURLEncoding.EncodeToString(sig)
}

func TestMalformedSecuredKeysAreRefusedSayingWhy(t *testing.T) {
	parent, _ := apikey.New()
	pub := securedkey.PublicKey(parent)
	signed := func(payload string) string {
		return securedkey.Prefix + base64.RawURLEncoding.EncodeToString([]byte(payload)) + "." + base64.RawURLEncoding.EncodeToString(signWith(parent, []byte(payload)))
	}
	cases := map[string]struct{ key, why string }{
		"too long":                 {securedkey.Prefix + strings.Repeat("a", securedkey.MaxLength), "longer than 8192 bytes"},
		"no dot":                   {securedkey.Prefix + "eyJ2IjoxfQ", "not a payload and a signature"},
		"a payload not base64url":  {securedkey.Prefix + "e*J.AAAA", "the payload is not base64url"},
		"a short signature":        {securedkey.Prefix + "eyJ2IjoxfQ.AAAA", "the signature is not 64 bytes"},
		"two dots":                 {signed(`{"v":1,"key":"`+pub+`"}`) + ".x", "the signature is not 64 bytes"},
		"a payload not JSON":       {signed(`v=1`), "payload: invalid JSON body"},
		"an unknown member":        {signed(`{"v":1,"key":"` + pub + `","referers":["x"]}`), `unknown field "referers"`},
		"a duplicate member":       {signed(`{"v":1,"key":"` + pub + `","v":1}`), "payload: invalid JSON body"},
		"another version":          {signed(`{"v":2,"key":"` + pub + `"}`), "version 2 is not one this server knows"},
		"a public key too short":   {signed(`{"v":1,"key":"AAAA"}`), "key is not a base64url Ed25519 public key"},
		"maxHits of 0":             {signed(`{"v":1,"key":"` + pub + `","maxHits":0}`), "maxHits must be between 1 and 100"},
		"maxHits over 100":         {signed(`{"v":1,"key":"` + pub + `","maxHits":101}`), "maxHits must be between 1 and 100"},
		"filters that are null":    {signed(`{"v":1,"key":"` + pub + `","filters":null}`), "filters: invalid JSON body"},
		"filters with a typo":      {signed(`{"v":1,"key":"` + pub + `","filters":{"feld":"g"}}`), `filters: invalid JSON body: unknown field "feld"`},
		"validUntil as a string":   {signed(`{"v":1,"key":"` + pub + `","validUntil":"tomorrow"}`), "payload: invalid JSON body"},
		"indexes as a string":      {signed(`{"v":1,"key":"` + pub + `","indexes":"products"}`), "payload: invalid JSON body"},
		"a member in another case": {signed(`{"v":1,"Key":"` + pub + `"}`), `unknown field "Key"`},
	}
	for name, c := range cases {
		_, err := decodeSecured(c.key)
		if !errors.Is(err, ErrInvalidSecuredKey) || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%s: got %v, want ErrInvalidSecuredKey saying %q", name, err, c.why)
		}
	}
}

func TestAnEmptyIndexListAllowsNoIndex(t *testing.T) {
	current, _ := apikey.New()
	previous, _ := apikey.New()
	payload := `{"v":1,"key":"` + securedkey.PublicKey(current) + `","indexes":[]}`
	key := securedkey.Prefix + base64.RawURLEncoding.EncodeToString([]byte(payload)) + "." + base64.RawURLEncoding.EncodeToString(signWith(current, []byte(payload)))
	p, err := check(parentOf(current, previous, securedNow.Add(time.Hour), "search"), key)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Indexes) != 0 {
		t.Fatalf("indexes [] reached %v", p.Indexes)
	}
}

func TestSecuredKeysReachOnlyEndpointsThatApplyThem(t *testing.T) {
	p := Principal{Workspace: "acme", Scopes: []searchv1alpha1.Scope{"search"}, Indexes: []string{"products"}, Restriction: &searchquery.Restriction{}}
	cases := []struct {
		name string
		ws   string
		req  Requirement
		want error
	}{
		{"a search that applies them", "acme", Need("search").AlsoSecured(), nil},
		{"a search key's endpoint that does not", "acme", Need("search"), ErrSecuredKeyDenied},
		{"a write endpoint", "acme", Need("write"), ErrSecuredKeyDenied},
		{"another workspace, first", "globex", Need("write"), ErrOtherWorkspace},
	}
	for _, c := range cases {
		if got := Authorize(p, c.ws, "products", true, c.req); !errors.Is(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

func signWith(parent string, payload []byte) []byte {
	return ed25519.Sign(securedkey.PrivateKey(parent), payload)
}

// FuzzDecodeSecured: whatever a header carries, decoding a secured key answers a
// decoded key or ErrInvalidSecuredKey, never a panic; and a decoded key's claims are
// within the format's bounds.
func FuzzDecodeSecured(f *testing.F) {
	parent := "aisle_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
	for _, r := range []securedkey.Restrictions{{}, {Filters: map[string]any{"or": []any{map[string]any{"field": "g", "in": []any{1, "x", true}}}}, Indexes: []string{"a"}, ValidUntil: securedNow, MaxHits: 3}} {
		key, _ := securedkey.Generate(parent, r)
		f.Add(key)
	}
	f.Add(securedkey.Prefix + "." + strings.Repeat("A", 86))
	f.Fuzz(func(t *testing.T, key string) {
		k, err := decodeSecured(key)
		if err != nil {
			if !errors.Is(err, ErrInvalidSecuredKey) {
				t.Fatalf("%q: %v", key, err)
			}
			return
		}
		if len(k.publicKey) != 32 || len(k.signature) != 64 || len(k.claims.Indexes) > securedkey.MaxIndexes {
			t.Fatalf("%q decoded out of bounds", key)
		}
		if m := k.claims.MaxHits; m != nil && (*m < 1 || *m > securedkey.MaxHits) {
			t.Fatalf("%q: maxHits %d", key, *m)
		}
	})
}
