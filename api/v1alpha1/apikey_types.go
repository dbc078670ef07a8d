package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Scope is a permission of an API key.
// +kubebuilder:validation:Enum=search;write;events
type Scope string

const (
	ScopeSearch Scope = "search"
	ScopeWrite  Scope = "write"
	ScopeEvents Scope = "events"
)

// KeyRotation issues a new key while the previous one stays valid for an overlap.
type KeyRotation struct {
	// Every rotates the key automatically this long after it was issued.
	// Unset: the key rotates only on request.
	// +optional
	// +kubebuilder:validation:XValidation:rule="duration(self) >= duration('1h')",message="rotation.every must be at least 1h"
	Every *metav1.Duration `json:"every,omitempty"`

	// Overlap is how long the previous key stays valid after a rotation.
	// +optional
	// +kubebuilder:default="24h"
	// +kubebuilder:validation:XValidation:rule="duration(self) >= duration('0s') && duration(self) <= duration('720h')",message="rotation.overlap must be between 0s and 720h"
	Overlap *metav1.Duration `json:"overlap,omitempty"`

	// Request rotates the key now when it changes: set it to any new value, for example
	// the current time.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	Request string `json:"request,omitempty"`
}

// APIKeySpec declares a key for server code.
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.secretName) || (has(self.secretName) && self.secretName == oldSelf.secretName)",message="secretName is immutable"
type APIKeySpec struct {
	// Scopes are the permissions of the key. A write key also carries events.
	// +required
	// +listType=set
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=3
	Scopes []Scope `json:"scopes"`

	// Indexes are the names of SearchIndexes in this namespace that the key may use.
	// Empty means none.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=100
	// +kubebuilder:validation:items:MaxLength=63
	// +kubebuilder:validation:items:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	Indexes []string `json:"indexes,omitempty"`

	// ExpiresAt is when the key stops working.
	// +optional
	ExpiresAt *metav1.Time `json:"expiresAt,omitempty"`

	// Rotation issues new keys on a schedule or on request.
	// +optional
	Rotation *KeyRotation `json:"rotation,omitempty"`

	// SecretName is the Secret the operator writes the key into (key "apiKey").
	// Defaults to "<name>-apikey". Immutable once set.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	SecretName string `json:"secretName,omitempty"`
}

// IssuedKey identifies one issued key value without revealing it.
type IssuedKey struct {
	// Prefix is the start of the key, enough to recognise it in logs.
	Prefix string `json:"prefix"`
	// Hash is the hex SHA-256 of the whole key.
	Hash string `json:"hash"`
	// IssuedAt is when the key was generated.
	IssuedAt metav1.Time `json:"issuedAt"`
	// RevokeAt is when a rotated-out key stops working.
	// +optional
	RevokeAt *metav1.Time `json:"revokeAt,omitempty"`
	// SecuredKeyPublicKey is the base64url Ed25519 public key that verifies the secured
	// keys derived from this key (docs/secured-keys.md): only the key's holder can make
	// one, and they stop working with this key.
	// +optional
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9_-]{43}$`
	SecuredKeyPublicKey string `json:"securedKeyPublicKey,omitempty"`
}

// APIKeyStatus is what the operator issued; the key itself is only in the Secret.
type APIKeyStatus struct {
	// ObservedGeneration is the metadata.generation this status was computed from.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// SecretName is the Secret holding the current key.
	// +optional
	SecretName string `json:"secretName,omitempty"`

	// Current is the key in use.
	// +optional
	Current *IssuedKey `json:"current,omitempty"`

	// Previous are rotated-out keys that stay valid until their revokeAt.
	// +optional
	// +listType=atomic
	Previous []IssuedKey `json:"previous,omitempty"`

	// Scopes are the effective scopes of the key (write adds events).
	// +optional
	// +listType=set
	Scopes []Scope `json:"scopes,omitempty"`

	// LastRotationRequest is the spec.rotation.request value that was last honoured.
	// +optional
	LastRotationRequest string `json:"lastRotationRequest,omitempty"`

	// Conditions: Ready is True while the key is valid.
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// APIKey is a secret key for server code, limited to scopes and indexes.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=ak,categories=aisle
// +kubebuilder:printcolumn:name="Scopes",type=string,JSONPath=`.spec.scopes`
// +kubebuilder:printcolumn:name="Prefix",type=string,JSONPath=`.status.current.prefix`
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:validation:XValidation:rule="self.metadata.name.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$') && size(self.metadata.name) <= 63",message="a key name is at most 63 lowercase letters, digits and '-', starting and ending with a letter or digit"
type APIKey struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +required
	Spec APIKeySpec `json:"spec"`
	// +optional
	Status APIKeyStatus `json:"status,omitempty"`
}

// APIKeyList is a list of APIKeys.
// +kubebuilder:object:root=true
type APIKeyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []APIKey `json:"items"`
}

func init() {
	register(&APIKey{}, &APIKeyList{})
}
