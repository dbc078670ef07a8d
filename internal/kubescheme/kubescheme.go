// Package kubescheme builds the runtime.Scheme of every Kubernetes type Aisle reads or writes.
package kubescheme

import (
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// New returns a scheme with the built-in Kubernetes types and the search.aisle.dev types.
func New() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		return nil, err
	}
	if err := searchv1alpha1.AddToScheme(s); err != nil {
		return nil, err
	}
	return s, nil
}
