package v1alpha1

// Condition types and reasons shared by the three kinds.
const (
	// ConditionReady is True when the object is fully reconciled and usable.
	ConditionReady = "Ready"

	// ReasonReconciled: everything the spec asks for exists.
	ReasonReconciled = "Reconciled"
	// ReasonWorkspaceNotFound: the namespace has no Workspace of the same name.
	ReasonWorkspaceNotFound = "WorkspaceNotFound"
	// ReasonPlanLimitReached: the workspace plan does not allow another one.
	ReasonPlanLimitReached = "PlanLimitReached"
	// ReasonBackendUnavailable: the search backend did not answer; the operator retries.
	ReasonBackendUnavailable = "BackendUnavailable"
	// ReasonExpired: the API key is past spec.expiresAt.
	ReasonExpired = "Expired"
	// ReasonBackendError: the search backend refused a request (not an outage); the
	// message says why, and the operator retries.
	ReasonBackendError = "BackendError"
	// ReasonNamespaceNotFound: the workspace's namespace does not exist yet.
	ReasonNamespaceNotFound = "NamespaceNotFound"
	// ReasonSecretError: the operator could not read or write the API key's Secret.
	ReasonSecretError = "SecretError"
)

// FieldPath is a dotted path to a record field, for example "brand" or "price.amount".
// +kubebuilder:validation:MinLength=1
// +kubebuilder:validation:MaxLength=128
// +kubebuilder:validation:Pattern=`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`
type FieldPath string

// Origin is a browser origin: scheme://host[:port], without path, trailing slash or wildcard.
// +kubebuilder:validation:MaxLength=253
// +kubebuilder:validation:XValidation:rule="self.matches('^https?://[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:[0-9]{1,5})?$')",message="an origin is scheme://host[:port] with scheme http or https, and no path, trailing slash or wildcard"
type Origin string
