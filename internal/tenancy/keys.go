package tenancy

import (
	"time"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/apikey"
)

// keyHashes lists every hash under which an APIKey may authenticate: the current key and
// rotated-out keys still in their overlap.
func keyHashes(k *searchv1alpha1.APIKey) []string {
	return issuedValues(k, func(i searchv1alpha1.IssuedKey) string { return i.Hash })
}

// securedKeyPublicKeys lists the public keys that verify the APIKey's secured keys: its
// current key's and its rotated-out keys'.
func securedKeyPublicKeys(k *searchv1alpha1.APIKey) []string {
	return issuedValues(k, func(i searchv1alpha1.IssuedKey) string { return i.SecuredKeyPublicKey })
}

// issuedValues lists value of each issued key of k that has one.
func issuedValues(k *searchv1alpha1.APIKey, value func(searchv1alpha1.IssuedKey) string) []string {
	var out []string
	if k.Status.Current != nil && value(*k.Status.Current) != "" {
		out = append(out, value(*k.Status.Current))
	}
	for _, prev := range k.Status.Previous {
		if value(prev) != "" {
			out = append(out, value(prev))
		}
	}
	return out
}

// checkKey decides whether key, one of k's issued keys, is valid at now.
func checkKey(k *searchv1alpha1.APIKey, key string, now time.Time) error {
	_, err := checkIssued(k, func(i searchv1alpha1.IssuedKey) bool { return apikey.Matches(key, i.Hash) }, now)
	return err
}

// checkIssued decides whether the issued key of k that is picks is valid at now, and
// returns it. The operator also drops expired and revoked keys from status, but checking
// here means a key stops working at its instant even when the operator is behind.
func checkIssued(k *searchv1alpha1.APIKey, is func(searchv1alpha1.IssuedKey) bool, now time.Time) (searchv1alpha1.IssuedKey, error) {
	if k.Spec.ExpiresAt != nil && !now.Before(k.Spec.ExpiresAt.Time) {
		return searchv1alpha1.IssuedKey{}, ErrExpiredKey
	}
	if k.Status.Current != nil && is(*k.Status.Current) {
		return *k.Status.Current, nil
	}
	for _, prev := range k.Status.Previous {
		if !is(prev) {
			continue
		}
		if prev.RevokeAt != nil && !now.Before(prev.RevokeAt.Time) {
			return searchv1alpha1.IssuedKey{}, ErrRevokedKey
		}
		return prev, nil
	}
	return searchv1alpha1.IssuedKey{}, ErrInvalidKey
}

// principalOf describes an authenticated key of k, shown in logs by prefix.
func principalOf(k *searchv1alpha1.APIKey, prefix string) Principal {
	return Principal{
		Workspace: k.Namespace,
		KeyName:   k.Name,
		Prefix:    prefix,
		Scopes:    EffectiveScopes(k.Spec.Scopes),
		Indexes:   k.Spec.Indexes,
	}
}
