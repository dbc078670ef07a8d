// Package keyrotation decides what the operator does with an API key: issue the first
// key, rotate it (on request or on schedule), replace a lost one, drop rotated-out keys
// whose overlap ended, and report expiry. It is pure: spec, status, the hash of the key
// found in the Secret and the current time in, a decision out.
//
// What status means to the apiserver: a presented key is valid when its hash equals
// status.current.hash, or a status.previous[].hash whose revokeAt is still in the future,
// and spec.expiresAt is unset or in the future. The apiserver checks both instants itself
// instead of waiting for the operator to update status.
package keyrotation

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// DefaultOverlap is how long a rotated-out key stays valid when the spec does not say.
const DefaultOverlap = 24 * time.Hour

// Reason says why a new key is issued.
type Reason string

const (
	// None: the current key stays.
	None Reason = ""
	// Initial: there is no key yet.
	Initial Reason = "Initial"
	// Replaced: the Secret is gone or holds another key; the old hash is dropped at once.
	Replaced Reason = "Replaced"
	// Requested: spec.rotation.request changed.
	Requested Reason = "Requested"
	// Scheduled: spec.rotation.every elapsed since the current key was issued.
	Scheduled Reason = "Scheduled"
)

// Decision is what to do now and when to look again.
type Decision struct {
	// Issue is why a new key must be issued, or None.
	Issue Reason
	// Previous is the list of rotated-out keys still valid after this step, including
	// the current key when a rotation moves it there.
	Previous []searchv1alpha1.IssuedKey
	// Revoked are previous keys whose overlap has ended.
	Revoked []searchv1alpha1.IssuedKey
	// Expired: spec.expiresAt has passed; no key is issued or kept valid.
	Expired bool
	// RequeueAfter is when something changes next (expiry, a revocation, a scheduled
	// rotation); zero means nothing is scheduled.
	RequeueAfter time.Duration
}

// Decide returns the decision for a key. secretHash is the hash of the key in the
// Secret, or "" when the Secret or its key is missing.
func Decide(spec searchv1alpha1.APIKeySpec, status searchv1alpha1.APIKeyStatus, secretHash string, now time.Time) Decision {
	if spec.ExpiresAt != nil && !now.Before(spec.ExpiresAt.Time) {
		return Decision{Expired: true, Revoked: status.Previous}
	}
	d := Decision{Issue: issueReason(spec, status, secretHash, now)}
	for _, k := range status.Previous {
		if k.RevokeAt != nil && now.Before(k.RevokeAt.Time) {
			d.Previous = append(d.Previous, k)
		} else {
			d.Revoked = append(d.Revoked, k)
		}
	}
	if (d.Issue == Requested || d.Issue == Scheduled) && Overlap(spec) > 0 {
		old := *status.Current
		old.RevokeAt = &metav1.Time{Time: now.Add(Overlap(spec))}
		d.Previous = append(d.Previous, old)
	}
	d.RequeueAfter = nextChange(spec, status, d, now)
	return d
}

func issueReason(spec searchv1alpha1.APIKeySpec, status searchv1alpha1.APIKeyStatus, secretHash string, now time.Time) Reason {
	switch {
	case status.Current == nil:
		return Initial
	case secretHash != status.Current.Hash:
		return Replaced
	case spec.Rotation == nil:
		return None
	case spec.Rotation.Request != "" && spec.Rotation.Request != status.LastRotationRequest:
		return Requested
	case spec.Rotation.Every != nil && !now.Before(status.Current.IssuedAt.Add(spec.Rotation.Every.Duration)):
		return Scheduled
	}
	return None
}

// Overlap is the effective overlap of a rotation.
func Overlap(spec searchv1alpha1.APIKeySpec) time.Duration {
	if spec.Rotation == nil || spec.Rotation.Overlap == nil {
		return DefaultOverlap
	}
	return spec.Rotation.Overlap.Duration
}

// nextChange is the soonest future instant at which the decision would differ.
func nextChange(spec searchv1alpha1.APIKeySpec, status searchv1alpha1.APIKeyStatus, d Decision, now time.Time) time.Duration {
	var next time.Duration
	consider := func(t time.Time) {
		if in := t.Sub(now); in > 0 && (next == 0 || in < next) {
			next = in
		}
	}
	if spec.ExpiresAt != nil {
		consider(spec.ExpiresAt.Time)
	}
	for _, k := range d.Previous {
		consider(k.RevokeAt.Time)
	}
	if spec.Rotation != nil && spec.Rotation.Every != nil {
		issued := now // a key issued now
		if d.Issue == None && status.Current != nil {
			issued = status.Current.IssuedAt.Time
		}
		consider(issued.Add(spec.Rotation.Every.Duration))
	}
	return next
}

// EffectiveScopes are the scopes a key really has: write carries events.
func EffectiveScopes(scopes []searchv1alpha1.Scope) []searchv1alpha1.Scope {
	out := make([]searchv1alpha1.Scope, 0, len(scopes)+1)
	has := map[searchv1alpha1.Scope]bool{}
	for _, s := range scopes {
		if !has[s] {
			has[s] = true
			out = append(out, s)
		}
	}
	if has[searchv1alpha1.ScopeWrite] && !has[searchv1alpha1.ScopeEvents] {
		out = append(out, searchv1alpha1.ScopeEvents)
	}
	return out
}
