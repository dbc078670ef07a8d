package controllers_test

import (
	"time"

	. "github.com/onsi/gomega"
	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"

	"github.com/aislehq/aisle/internal/esnames"
)

var testMonth = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

// createSideIndices creates an event index and the order index, as the apiserver would.
func createSideIndices(names esnames.Index) {
	for _, name := range []string{names.Events(testMonth), names.Orders()} {
		_, err := esClient.Indices.Create(name).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
	}
}

func isNotFound(err error) bool { return apierrors.IsNotFound(err) }

// updateWorkspace changes a Workspace, retrying on conflicts with the operator's writes.
func updateWorkspace(name string, change func(*searchv1alpha1.Workspace)) {
	Eventually(func() error {
		ws := &searchv1alpha1.Workspace{}
		if err := k8sClient.Get(ctx, client.ObjectKey{Name: name}, ws); err != nil {
			return err
		}
		change(ws)
		return k8sClient.Update(ctx, ws)
	}).Should(Succeed())
}

// eventReasons returns the reasons of the Events about an object.
func eventReasons(obj client.Object) func(Gomega) []string {
	return func(g Gomega) []string {
		list := &eventsv1.EventList{}
		g.Expect(k8sClient.List(ctx, list, client.InNamespace(obj.GetNamespace()))).To(Succeed())
		var reasons []string
		for _, e := range list.Items {
			if e.Regarding.UID == obj.GetUID() {
				reasons = append(reasons, e.Reason)
			}
		}
		return reasons
	}
}
