package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// PlanLimits are the quotas of a workspace. The apiserver answers 402 when one is reached.
type PlanLimits struct {
	// MaxRecords is the largest number of records all indexes of the workspace may hold together.
	// +optional
	// +kubebuilder:default=1000000
	// +kubebuilder:validation:Minimum=1
	MaxRecords int64 `json:"maxRecords,omitempty"`

	// MaxIndexes is the largest number of SearchIndexes in the workspace. An index beyond it
	// gets Ready=False with reason PlanLimitReached and no backend index.
	// +optional
	// +kubebuilder:default=10
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1000
	MaxIndexes int32 `json:"maxIndexes,omitempty"`

	// MonthlySearches is the number of keyed and public searches allowed per calendar month (UTC).
	// +optional
	// +kubebuilder:default=1000000
	// +kubebuilder:validation:Minimum=1
	MonthlySearches int64 `json:"monthlySearches,omitempty"`
}

// WorkspaceSpec is what the platform team declares for a tenant.
type WorkspaceSpec struct {
	// DisplayName is a human-readable name shown in dashboards.
	// +optional
	// +kubebuilder:validation:MaxLength=128
	DisplayName string `json:"displayName,omitempty"`

	// Plan holds the quotas of the workspace.
	// +optional
	// +kubebuilder:default={}
	Plan PlanLimits `json:"plan,omitempty"`
}

// WorkspaceStatus is what the operator observed about the workspace.
type WorkspaceStatus struct {
	// ObservedGeneration is the metadata.generation this status was computed from.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// Indexes is the number of SearchIndexes in the workspace namespace.
	// +optional
	Indexes int32 `json:"indexes,omitempty"`

	// APIKeys is the number of APIKeys in the workspace namespace.
	// +optional
	APIKeys int32 `json:"apiKeys,omitempty"`

	// Conditions: Ready is True when the workspace namespace exists.
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Workspace is a tenant. Its name is the workspace ID of the API paths, and its indexes
// and keys live in the namespace of the same name.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Cluster,shortName=ws,categories=aisle
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="Indexes",type=integer,JSONPath=`.status.indexes`
// +kubebuilder:printcolumn:name="Keys",type=integer,JSONPath=`.status.apiKeys`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:validation:XValidation:rule="self.metadata.name.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$') && size(self.metadata.name) <= 63",message="a workspace name is a DNS label: at most 63 lowercase letters, digits and '-', starting and ending with a letter or digit"
type Workspace struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +optional
	// +kubebuilder:default={}
	Spec WorkspaceSpec `json:"spec,omitempty"`
	// +optional
	Status WorkspaceStatus `json:"status,omitempty"`
}

// WorkspaceList is a list of Workspaces.
// +kubebuilder:object:root=true
type WorkspaceList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Workspace `json:"items"`
}

func init() {
	register(&Workspace{}, &WorkspaceList{})
}
