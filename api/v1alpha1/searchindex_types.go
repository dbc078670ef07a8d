package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DeletionPolicy says what happens to the Elasticsearch data when a SearchIndex is deleted.
// +kubebuilder:validation:Enum=Retain;Delete
type DeletionPolicy string

const (
	// DeletionRetain leaves the alias, physical indices, events and orders in Elasticsearch.
	DeletionRetain DeletionPolicy = "Retain"
	// DeletionDelete removes the alias, every physical index, the event and order indices
	// and the merchandising rules.
	DeletionDelete DeletionPolicy = "Delete"
)

// SearchIndexSpec declares a searchable catalog.
type SearchIndexSpec struct {
	// AllowedOrigins are the browser origins that may call the public endpoints of this
	// index, compared exactly with the Origin header.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=50
	AllowedOrigins []Origin `json:"allowedOrigins,omitempty"`

	// DeletionPolicy: Retain keeps the data in Elasticsearch when the SearchIndex is
	// deleted; Delete removes it.
	// +optional
	// +kubebuilder:default=Retain
	DeletionPolicy DeletionPolicy `json:"deletionPolicy,omitempty"`

	// Settings decide analysis, matching, filtering, faceting and ranking. Also written by
	// PUT /config (server-side apply, field manager aisle-apiserver).
	// +optional
	// +kubebuilder:default={}
	Settings IndexSettings `json:"settings,omitempty"`

	// PublicAccess configures public search. Also written by PUT|DELETE /public-access/policy.
	// +optional
	PublicAccess *PublicAccess `json:"publicAccess,omitempty"`
}

// RebuildState is the phase of a settings rebuild.
// +kubebuilder:validation:Enum=Pending;Running;Succeeded;Failed
type RebuildState string

const (
	RebuildPending   RebuildState = "Pending"
	RebuildRunning   RebuildState = "Running"
	RebuildSucceeded RebuildState = "Succeeded"
	RebuildFailed    RebuildState = "Failed"
)

// RebuildStatus is the progress of a background rebuild into a new physical index.
type RebuildStatus struct {
	// State is the phase of the rebuild.
	State RebuildState `json:"state"`
	// TargetIndex is the physical index being filled.
	// +optional
	TargetIndex string `json:"targetIndex,omitempty"`
	// Generation is the metadata.generation whose settings the rebuild applies.
	// +optional
	Generation int64 `json:"generation,omitempty"`
	// DocumentsDone is the number of records copied so far.
	// +optional
	DocumentsDone int64 `json:"documentsDone,omitempty"`
	// DocumentsTotal is the number of records to copy.
	// +optional
	DocumentsTotal int64 `json:"documentsTotal,omitempty"`
	// StartTime is when the rebuild started.
	// +optional
	StartTime *metav1.Time `json:"startTime,omitempty"`
	// CompletionTime is when it succeeded or failed.
	// +optional
	CompletionTime *metav1.Time `json:"completionTime,omitempty"`
	// Error says why it failed.
	// +optional
	Error string `json:"error,omitempty"`
}

// SearchIndexStatus is what the operator observed about the index.
type SearchIndexStatus struct {
	// ObservedGeneration is the metadata.generation this status was computed from.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// PublicID identifies the index on the browser endpoints: random, URL-safe, assigned
	// once and kept.
	// +optional
	PublicID string `json:"publicId,omitempty"`

	// Alias is the stable Elasticsearch alias that readers and writers use.
	// +optional
	Alias string `json:"alias,omitempty"`

	// PhysicalIndex is the Elasticsearch index the alias points at.
	// +optional
	PhysicalIndex string `json:"physicalIndex,omitempty"`

	// SettingsHash is a digest of the settings the physical index was built from, so a
	// rebuild can tell whether the current settings need a new physical index.
	// +optional
	SettingsHash string `json:"settingsHash,omitempty"`
	// Records is the number of records in the index.
	// +optional
	Records int64 `json:"records"`

	// Rebuild is the progress of the latest settings rebuild.
	// +optional
	Rebuild *RebuildStatus `json:"rebuild,omitempty"`

	// Conditions: Ready is True when the alias and its physical index exist.
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// SearchIndex is a searchable product catalog. Its name is the index name of the API
// paths; its namespace is the workspace it belongs to.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:path=searchindexes,shortName=si;sidx,categories=aisle
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="Public ID",type=string,JSONPath=`.status.publicId`
// +kubebuilder:printcolumn:name="Records",type=integer,JSONPath=`.status.records`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:validation:XValidation:rule="self.metadata.name.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$') && size(self.metadata.name) <= 63",message="an index name is at most 63 lowercase letters, digits and '-', starting and ending with a letter or digit"
type SearchIndex struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +optional
	// +kubebuilder:default={}
	Spec SearchIndexSpec `json:"spec,omitempty"`
	// +optional
	Status SearchIndexStatus `json:"status,omitempty"`
}

// SearchIndexList is a list of SearchIndexes.
// +kubebuilder:object:root=true
type SearchIndexList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []SearchIndex `json:"items"`
}

func init() {
	register(&SearchIndex{}, &SearchIndexList{})
}
