package securedkey_test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aislehq/aisle/api/securedkey"
)

// update rewrites testdata/vectors.json from vectorInputs: go test ./api/securedkey -update.
var update = flag.Bool("update", false, "rewrite testdata/vectors.json")

const vectorsFile = "testdata/vectors.json"

// vector is one input of the derivation and its outputs. web/test/secured-key.test.mjs
// checks that the JavaScript derivation gives the same bytes.
type vector struct {
	Name         string            `json:"name"`
	ParentKey    string            `json:"parentKey"`
	Restrictions vectorRestriction `json:"restrictions"`
	PublicKey    string            `json:"publicKey"`
	Payload      string            `json:"payload"`
	Key          string            `json:"key"`
}

// vectorRestriction is Restrictions as the JavaScript function takes them.
type vectorRestriction struct {
	Filters    json.RawMessage `json:"filters,omitempty"`
	Indexes    []string        `json:"indexes,omitempty"`
	ValidUntil int64           `json:"validUntil,omitempty"`
	MaxHits    int             `json:"maxHits,omitempty"`
}

func (v vectorRestriction) restrictions() securedkey.Restrictions {
	r := securedkey.Restrictions{Indexes: v.Indexes, MaxHits: v.MaxHits}
	if v.Filters != nil {
		r.Filters = v.Filters
	}
	if v.ValidUntil != 0 {
		r.ValidUntil = time.Unix(v.ValidUntil, 0)
	}
	return r
}

// vectorInputs cover each member, a filter tree with numbers, booleans and nesting, and
// strings a JSON encoder might escape (HTML characters, non-ASCII letters).
var vectorInputs = []vector{
	{Name: "no restrictions", ParentKey: "aisle_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"},
	{Name: "a customer group for an hour", ParentKey: "aisle_k3y-0f_th3-sh0p_s3rv3r_xxxxxxxxxxxxxxxxxxxxx",
		Restrictions: vectorRestriction{Filters: json.RawMessage(`{"field":"customerGroup","eq":"b2b-42"}`), ValidUntil: 1767225600}},
	{Name: "every member", ParentKey: "aisle_Zm9vYmFyYmF6cXV4cXV1eHF1dXpxdXV6cXV1enF1dXo",
		Restrictions: vectorRestriction{
			Filters:    json.RawMessage(`{"and":[{"field":"price","range":{"gte":19.99,"lt":500}},{"or":[{"field":"inStock","eq":true},{"field":"brand","in":["Acme","Globex"]}]},{"not":{"field":"hidden","exists":true}}]}`),
			Indexes:    []string{"products", "products-de"},
			ValidUntil: 4102444800,
			MaxHits:    20,
		}},
	{Name: "strings with HTML characters and accents", ParentKey: "aisle_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_",
		Restrictions: vectorRestriction{Filters: json.RawMessage(`{"field":"group","in":["<b>&amp;</b>","café","Größe","日本"]}`), MaxHits: 1}},
}

func computed(t *testing.T) []vector {
	var out []vector
	for _, v := range vectorInputs {
		key, err := securedkey.Generate(v.ParentKey, v.Restrictions.restrictions())
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		payload, err := base64.RawURLEncoding.DecodeString(strings.SplitN(strings.TrimPrefix(key, securedkey.Prefix), ".", 2)[0])
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		v.PublicKey, v.Payload, v.Key = securedkey.PublicKey(v.ParentKey), string(payload), key
		out = append(out, v)
	}
	return out
}

func TestTheDerivationGivesTheCommittedVectors(t *testing.T) {
	got, err := json.MarshalIndent(computed(t), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if *update {
		if err := os.WriteFile(vectorsFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(vectorsFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("the derivation no longer gives %s (a change of format breaks every key shops made): got\n%s", vectorsFile, got)
	}
}

func TestAKeyIsSignedByItsParentsKeyPairAndOnlyByIt(t *testing.T) {
	for _, v := range computed(t) {
		payload, sig := split(t, v.Key)
		pub, err := base64.RawURLEncoding.DecodeString(v.PublicKey)
		if err != nil || len(pub) != ed25519.PublicKeySize {
			t.Fatalf("%s: public key %q", v.Name, v.PublicKey)
		}
		if !ed25519.Verify(pub, payload, sig) {
			t.Errorf("%s: the signature does not verify with the parent's public key", v.Name)
		}
		other := securedkey.PublicKey(v.ParentKey + "x")
		otherPub, _ := base64.RawURLEncoding.DecodeString(other)
		if ed25519.Verify(otherPub, payload, sig) {
			t.Errorf("%s: verifies with another key's public key", v.Name)
		}
		var p securedkey.Payload
		if err := json.Unmarshal(payload, &p); err != nil || p.V != securedkey.Version || p.Key != v.PublicKey {
			t.Errorf("%s: payload %s names %q, version %d (%v)", v.Name, payload, p.Key, p.V, err)
		}
	}
}

func split(t *testing.T, key string) (payload, sig []byte) {
	t.Helper()
	encPayload, encSig, ok := strings.Cut(strings.TrimPrefix(key, securedkey.Prefix), ".")
	if !ok || !strings.HasPrefix(key, securedkey.Prefix) {
		t.Fatalf("%q is not prefix, payload, dot and signature", key)
	}
	payload, err1 := base64.RawURLEncoding.DecodeString(encPayload)
	sig, err2 := base64.RawURLEncoding.DecodeString(encSig)
	if err := errors.Join(err1, err2); err != nil {
		t.Fatal(err)
	}
	return payload, sig
}

func TestRestrictionsThatCannotMakeAKeyAreRefused(t *testing.T) {
	parent := vectorInputs[0].ParentKey
	cases := map[string]securedkey.Restrictions{
		"an empty index list (it would allow no index)": {Indexes: []string{}},
		"an index name that is not one":                 {Indexes: []string{"Products"}},
		"101 indexes":                                   {Indexes: strings.Fields(strings.Repeat("a ", 101))},
		"maxHits over 100":                              {MaxHits: 101},
		"a negative maxHits":                            {MaxHits: -1},
		"validUntil before 1970":                        {ValidUntil: time.Unix(-5, 0)},
		"filters that are not an object":                {Filters: []string{"customerGroup"}},
		"filters that are not JSON":                     {Filters: json.RawMessage(`{"field":`)},
		"filters too long for a key":                    {Filters: map[string]any{"field": "g", "in": strings.Fields(strings.Repeat("abcdefgh ", 700))}},
	}
	for name, r := range cases {
		if key, err := securedkey.Generate(parent, r); !errors.Is(err, securedkey.ErrInvalid) {
			t.Errorf("%s: got %q, %v; want ErrInvalid", name, key, err)
		}
	}
}

func TestTheSeedIsTheDocumentedHash(t *testing.T) {
	// The format's first line, spelled out: a second implementation starts here.
	parent := "aisle_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
	seed := sha256Of("aisle secured key v1\x00" + parent)
	if !bytes.Equal(securedkey.PrivateKey(parent).Seed(), seed) {
		t.Fatal("the private key's seed is not SHA-256 of the context and the parent key")
	}
}

func sha256Of(s string) []byte {
	sum := sha256.Sum256([]byte(s))
	return sum[:]
}
