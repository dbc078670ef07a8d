package tenancy

import (
	"errors"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/apikey"
	"github.com/aislehq/aisle/internal/searchquery"
)

func TestAuthorize(t *testing.T) {
	search := Principal{Workspace: "acme", Scopes: []searchv1alpha1.Scope{"search"}, Indexes: []string{"products"}}
	write := Principal{Workspace: "acme", Scopes: EffectiveScopes([]searchv1alpha1.Scope{"write"}), Indexes: []string{"products"}}
	cases := []struct {
		name   string
		p      Principal
		ws     string
		index  string
		exists bool
		req    Requirement
		want   error
	}{
		{"search key searches", search, "acme", "products", true, Need("search"), nil},
		{"write key sends events", write, "acme", "products", true, Need("events"), nil},
		{"write key reads an either endpoint", write, "acme", "products", true, Either, nil},
		{"search key cannot write", search, "acme", "products", true, Need("write"), ErrScopeDenied},
		{"other workspace, index exists", search, "globex", "products", true, Need("search"), ErrOtherWorkspace},
		{"other workspace, index missing", search, "globex", "x", false, Need("search"), ErrOtherWorkspace},
		{"own workspace, index missing", search, "acme", "x", false, Need("search"), ErrIndexNotFound},
		{"own workspace, index not granted", search, "acme", "staff", true, Need("search"), ErrIndexDenied},
	}
	for _, c := range cases {
		if got := Authorize(c.p, c.ws, c.index, c.exists, c.req); !errors.Is(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

func TestAuthorizeWorkspace(t *testing.T) {
	search := Principal{Workspace: "acme", Scopes: []searchv1alpha1.Scope{"search"}, Indexes: []string{"products"}}
	write := Principal{Workspace: "acme", Scopes: EffectiveScopes([]searchv1alpha1.Scope{"write"}), Indexes: []string{"products"}}
	noIndex := Principal{Workspace: "acme", Scopes: []searchv1alpha1.Scope{"search"}}
	cases := []struct {
		name string
		p    Principal
		ws   string
		want error
	}{
		{"a search key of the workspace", search, "acme", nil},
		{"a key of another workspace", search, "globex", ErrOtherWorkspace},
		{"a key without search", write, "acme", ErrScopeDenied},
		{"a search key of no index", noIndex, "acme", ErrIndexDenied},
	}
	for _, c := range cases {
		if got := AuthorizeWorkspace(c.p, c.ws, Need("search")); !errors.Is(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
	secured := search
	secured.Restriction = &searchquery.Restriction{MaxHits: 1}
	if got := AuthorizeWorkspace(secured, "acme", Need("search")); !errors.Is(got, ErrSecuredKeyDenied) {
		t.Errorf("a secured key on an endpoint without its restrictions: got %v", got)
	}
	if got := AuthorizeWorkspace(secured, "acme", Need("search").AlsoSecured()); got != nil {
		t.Errorf("a secured key on an endpoint applying them: got %v", got)
	}
}

func TestCheckKey(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	current, _ := apikey.New()
	previous, _ := apikey.New()
	stranger, _ := apikey.New()
	at := func(d time.Duration) *metav1.Time { return &metav1.Time{Time: now.Add(d)} }
	key := func(expires, revoke *metav1.Time) *searchv1alpha1.APIKey {
		k := &searchv1alpha1.APIKey{}
		k.Spec.ExpiresAt = expires
		k.Status.Current = &searchv1alpha1.IssuedKey{Hash: apikey.Hash(current)}
		k.Status.Previous = []searchv1alpha1.IssuedKey{{Hash: apikey.Hash(previous), RevokeAt: revoke}}
		return k
	}
	cases := []struct {
		name string
		k    *searchv1alpha1.APIKey
		key  string
		want error
	}{
		{"current key", key(nil, at(time.Hour)), current, nil},
		{"previous key in its overlap", key(nil, at(time.Hour)), previous, nil},
		{"previous key at its revocation instant", key(nil, at(0)), previous, ErrRevokedKey},
		{"key at its expiry instant", key(at(0), nil), current, ErrExpiredKey},
		{"key before expiry", key(at(time.Second), nil), current, nil},
		{"unknown key", key(nil, nil), stranger, ErrInvalidKey},
	}
	for _, c := range cases {
		if got := checkKey(c.k, c.key, now); !errors.Is(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

func TestBearerToken(t *testing.T) {
	cases := map[string]error{
		"":                 ErrMissingKey,
		"Bearer":           ErrMalformedKey,
		"Bearer ":          ErrMalformedKey,
		"Basic abc":        ErrMalformedKey,
		"Bearer a b":       ErrMalformedKey,
		"Bearer aisle_abc": nil,
		"bearer aisle_abc": nil,
	}
	for header, want := range cases {
		if _, got := bearerToken(header); !errors.Is(got, want) {
			t.Errorf("%q: got %v, want %v", header, got, want)
		}
	}
}
