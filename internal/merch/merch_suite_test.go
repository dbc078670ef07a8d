package merch_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/merch"
	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/test/esspec"
)

// The service's specs run against the search backend of the tests (the embedded engine
// unless AISLE_ES_URL names a cluster), through a recorder that fails the suite when a
// request is outside Elasticsearch's specification.
var (
	esClient *elasticsearch.TypedClient
	ctx      context.Context
)

func TestMerch(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Merchandising rules")
}

var _ = BeforeSuite(func() { ctx, esClient = esspec.SuiteBackend() })

// testSchema is the records' mapping the rules' filters are checked against.
var testSchema = searchquery.Schema{
	"brand": {Path: "brand", Kind: searchquery.KindString, Keyword: "brand.keyword"},
	"price": {Path: "price", Kind: searchquery.KindNumber, Keyword: "price"},
}

type fixedSchemas struct{}

func (fixedSchemas) Schema(context.Context, string) (searchquery.Schema, error) {
	return testSchema, nil
}

// testSettings make brand and price filterable.
var testSettings = searchv1alpha1.IndexSettings{FilterableFields: []searchv1alpha1.FieldPath{"brand", "price"}}

// clock is the time the services of the specs tell.
var clock atomic.Pointer[time.Time]

func now() time.Time {
	if t := clock.Load(); t != nil {
		return *t
	}
	return time.Now()
}

var indexCounter atomic.Int64

// newTarget is a fresh index's target (its rules index does not exist yet).
func newTarget() merch.Target {
	name := fmt.Sprintf("idx-%d", indexCounter.Add(1))
	return merch.Target{Names: esnames.For("ws", name), UID: name, Settings: testSettings}
}

func newService() *merch.Service { return merch.New(esClient, fixedSchemas{}, now) }
