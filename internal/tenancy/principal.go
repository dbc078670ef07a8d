// Package tenancy answers who a request is and what it may touch: API keys, workspaces and
// indexes, read from the Kubernetes API through an informer cache (never from Secrets).
package tenancy

import (
	"errors"
	"slices"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
)

// Authentication and authorization failures. The HTTP layer maps each to its status.
var (
	ErrMissingKey     = errors.New("missing API key: send Authorization: Bearer <API_KEY>")
	ErrMalformedKey   = errors.New("invalid API key: the Authorization header must be Bearer <API_KEY>")
	ErrInvalidKey     = errors.New("invalid API key")
	ErrExpiredKey     = errors.New("API key expired")
	ErrRevokedKey     = errors.New("API key revoked")
	ErrOtherWorkspace = errors.New("API key does not grant access to this workspace")
	ErrIndexNotFound  = errors.New("index not found")
	// ErrWorkspaceNotFound: the Workspace object of a namespace is missing.
	ErrWorkspaceNotFound = errors.New("workspace not found")
	ErrIndexDenied       = errors.New("API key does not grant access to this index")
	ErrScopeDenied       = errors.New("API key lacks the scope this endpoint needs")
	// ErrInvalidSecuredKey: a secured key that is malformed, tampered with, or whose
	// parent key is unknown (deleted, or rotated away); its message says which.
	ErrInvalidSecuredKey = errors.New("invalid secured API key")
	// ErrSecuredKeyDenied: a secured key on an endpoint that does not apply its
	// restrictions.
	ErrSecuredKeyDenied = errors.New("a secured API key only searches: this endpoint needs the key it was derived from")
)

// Requirement is the scope an endpoint needs. Either accepts a key with any of Scopes.
type Requirement struct {
	Scopes []searchv1alpha1.Scope
	// SecuredKeys: the endpoint also takes secured keys, and applies their restriction
	// (Principal.Restriction) to what it answers.
	SecuredKeys bool
}

// AlsoSecured returns r taking secured keys too.
func (r Requirement) AlsoSecured() Requirement {
	r.SecuredKeys = true
	return r
}

// Need returns the requirement of one scope.
func Need(scope searchv1alpha1.Scope) Requirement {
	return Requirement{Scopes: []searchv1alpha1.Scope{scope}}
}

// Either is the requirement of endpoints marked "either" in the contract: reads that
// serve both a search key and a write key.
var Either = Requirement{Scopes: []searchv1alpha1.Scope{searchv1alpha1.ScopeSearch, searchv1alpha1.ScopeWrite}}

// Principal is an authenticated API key.
type Principal struct {
	Workspace string
	KeyName   string
	Prefix    string
	Scopes    []searchv1alpha1.Scope
	Indexes   []string
	// Restriction is a secured key's, to apply on top of each search; nil for a plain key.
	Restriction *searchquery.Restriction
}

// EffectiveScopes adds the scopes a scope implies: write carries events.
func EffectiveScopes(scopes []searchv1alpha1.Scope) []searchv1alpha1.Scope {
	out := slices.Clone(scopes)
	if slices.Contains(out, searchv1alpha1.ScopeWrite) && !slices.Contains(out, searchv1alpha1.ScopeEvents) {
		out = append(out, searchv1alpha1.ScopeEvents)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Allows reports whether the principal has one of the required scopes.
func (p Principal) Allows(req Requirement) bool {
	for _, s := range req.Scopes {
		if slices.Contains(p.Scopes, s) {
			return true
		}
	}
	return false
}

// Authorize decides whether p may call an endpoint needing req on index of workspace.
// The workspace is checked first so that a key learns nothing about other tenants: it
// gets the same answer whether or not their workspace or index exists.
func Authorize(p Principal, workspace, index string, indexExists bool, req Requirement) error {
	if p.Workspace != workspace {
		return ErrOtherWorkspace
	}
	if p.Restriction != nil && !req.SecuredKeys {
		return ErrSecuredKeyDenied
	}
	if !p.Allows(req) {
		return ErrScopeDenied
	}
	if !indexExists {
		return ErrIndexNotFound
	}
	if !slices.Contains(p.Indexes, index) {
		return ErrIndexDenied
	}
	return nil
}

// AuthorizeWorkspace decides whether p may call an endpoint of workspace that names its
// indexes in its body (multi-search): the workspace and scope as Authorize checks them,
// and at least one index; each index named is then checked with Authorize.
func AuthorizeWorkspace(p Principal, workspace string, req Requirement) error {
	if p.Workspace != workspace {
		return ErrOtherWorkspace
	}
	if p.Restriction != nil && !req.SecuredKeys {
		return ErrSecuredKeyDenied
	}
	if !p.Allows(req) {
		return ErrScopeDenied
	}
	if len(p.Indexes) == 0 {
		return ErrIndexDenied
	}
	return nil
}
