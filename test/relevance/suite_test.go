// Package relevance measures how well search finds the products people judged relevant
// (../shared/relevance, read at run time): each set is loaded through the HTTP API into
// a SearchIndex of its own, as a shop would, and into plain engine indices searched with
// multi_match, Elasticsearch's first answer. make test holds a floor on the development
// queries; make bench-relevance (AISLE_BENCH=1) prints the whole comparison.
package relevance

import (
	"context"
	"os"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/apikey"
	"github.com/aislehq/aisle/internal/devenv"
	"github.com/aislehq/aisle/test/judged"
	"github.com/aislehq/aisle/test/system"
)

func TestRelevance(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Relevance on judged catalogs")
}

var (
	running *system.Running
	sets    []*judged.Set
	key     string
)

const workspace = "demo"

var _ = BeforeSuite(func(ctx SpecContext) {
	dir, err := judged.Dir()
	Expect(err).NotTo(HaveOccurred(), "the judged sets live in ../shared/relevance")
	icecat, err := judged.Icecat(dir)
	Expect(err).NotTo(HaveOccurred())
	esci, err := judged.ESCI(dir)
	Expect(err).NotTo(HaveOccurred())
	sets = []*judged.Set{icecat, esci}

	running, err = system.Start(GinkgoT().TempDir())
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { Expect(running.Stop()).To(Succeed()) })
	c, err := running.Client()
	Expect(err).NotTo(HaveOccurred())
	for _, s := range sets {
		Expect(c.Create(ctx, searchIndex(s))).To(Succeed())
	}
	Expect(c.Create(ctx, &searchv1alpha1.APIKey{ObjectMeta: metav1.ObjectMeta{Namespace: workspace, Name: "relevance"},
		Spec: searchv1alpha1.APIKeySpec{Scopes: []searchv1alpha1.Scope{"search", "write"}, Indexes: []string{sets[0].Name, sets[1].Name}}})).To(Succeed())
	Eventually(func() (bool, error) {
		ok, _, err := devenv.Ready(ctx, c, workspace)
		return ok, err
	}).WithTimeout(2 * time.Minute).WithPolling(200 * time.Millisecond).Should(BeTrue())
	key = readKey(ctx, c)
	for _, s := range sets {
		loadThroughAPI(ctx, s)
		for _, analyzer := range analyzers {
			loadPlain(ctx, s, analyzer)
		}
	}
}, NodeTimeout(15*time.Minute))

// searchIndex is a set's SearchIndex as a shop declares it: its fields and weights,
// English, no other setting.
func searchIndex(s *judged.Set) *searchv1alpha1.SearchIndex {
	var fields []searchv1alpha1.SearchableField
	for _, f := range s.Fields {
		fields = append(fields, searchv1alpha1.SearchableField{Path: searchv1alpha1.FieldPath(f.Path), Weight: f.Weight})
	}
	return &searchv1alpha1.SearchIndex{ObjectMeta: metav1.ObjectMeta{Namespace: workspace, Name: s.Name},
		Spec: searchv1alpha1.SearchIndexSpec{Settings: searchv1alpha1.IndexSettings{
			Language: searchv1alpha1.LanguageEnglish, SearchableFields: fields, Embedders: embedders(s)}}}
}

func readKey(ctx context.Context, c client.Client) string {
	var k searchv1alpha1.APIKey
	Expect(c.Get(ctx, types.NamespacedName{Namespace: workspace, Name: "relevance"}, &k)).To(Succeed())
	var secret corev1.Secret
	Expect(c.Get(ctx, types.NamespacedName{Namespace: workspace, Name: k.Status.SecretName}, &secret)).To(Succeed())
	return string(secret.Data[apikey.SecretKey])
}

// benchmarking reports make bench-relevance: the whole comparison is printed.
func benchmarking() bool { return os.Getenv("AISLE_BENCH") != "" }
