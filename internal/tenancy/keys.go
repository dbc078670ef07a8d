package tenancy

import (
	"time"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/apikey"
)

// keyHashes lists every hash under which an APIKey may authenticate: the current key and
// rotated-out keys still in their overlap.
func keyHashes(k *searchv1alpha1.APIKey) []string {
	var hashes []string
	if k.Status.Current != nil {
		hashes = append(hashes, k.Status.Current.Hash)
	}
	for _, prev := range k.Status.Previous {
		hashes = append(hashes, prev.Hash)
	}
	return hashes
}

// checkKey decides whether key, one of k's issued keys, is valid at now. The operator
// also drops expired and revoked keys from status, but checking here means a key stops
// working at its instant even when the operator is behind.
func checkKey(k *searchv1alpha1.APIKey, key string, now time.Time) error {
	if k.Spec.ExpiresAt != nil && !now.Before(k.Spec.ExpiresAt.Time) {
		return ErrExpiredKey
	}
	if k.Status.Current != nil && apikey.Matches(key, k.Status.Current.Hash) {
		return nil
	}
	for _, prev := range k.Status.Previous {
		if !apikey.Matches(key, prev.Hash) {
			continue
		}
		if prev.RevokeAt != nil && !now.Before(prev.RevokeAt.Time) {
			return ErrRevokedKey
		}
		return nil
	}
	return ErrInvalidKey
}

// principalOf describes an authenticated key.
func principalOf(k *searchv1alpha1.APIKey, key string) Principal {
	return Principal{
		Workspace: k.Namespace,
		KeyName:   k.Name,
		Prefix:    apikey.Prefix(key),
		Scopes:    EffectiveScopes(k.Spec.Scopes),
		Indexes:   k.Spec.Indexes,
	}
}
