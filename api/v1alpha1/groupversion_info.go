// Package v1alpha1 contains the API types of the search.aisle.dev group: Workspace,
// SearchIndex and APIKey.
// +kubebuilder:object:generate=true
// +groupName=search.aisle.dev
package v1alpha1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

var (
	// GroupVersion is the group and version of these types.
	GroupVersion = schema.GroupVersion{Group: "search.aisle.dev", Version: "v1alpha1"}

	// SchemeBuilder registers the types of this group with a runtime.Scheme.
	SchemeBuilder = &scheme.Builder{GroupVersion: GroupVersion}

	// AddToScheme adds the types of this group to a runtime.Scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)
