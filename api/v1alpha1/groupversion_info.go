// Package v1alpha1 contains the API types of the search.aisle.dev group: Workspace,
// SearchIndex and APIKey.
// +kubebuilder:object:generate=true
// +groupName=search.aisle.dev
package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is the group and version of these types.
	GroupVersion = schema.GroupVersion{Group: "search.aisle.dev", Version: "v1alpha1"}

	// SchemeBuilder registers the types of this group with a runtime.Scheme.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)

	// AddToScheme adds the types of this group to a runtime.Scheme.
	AddToScheme = SchemeBuilder.AddToScheme

	// knownTypes are registered by each kind's file, keeping a kind and its
	// registration together.
	knownTypes []runtime.Object
)

func register(objs ...runtime.Object) {
	knownTypes = append(knownTypes, objs...)
}

func addKnownTypes(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, knownTypes...)
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
