// Package recommend builds the recommendation lists of an index beside Bought together
// (internal/events): similar products (the nearest vectors of the product's, by a kNN
// search, when the index has an embedder and the product its vector; otherwise shared
// words of the searchable fields, by Elasticsearch's more_like_this, and shared facet
// values; within the product's similarWithin value either way), goes with (products bought in the same orders, ranked by lift
// with significant_terms, outside the product's similarWithin values; with too few orders
// the best sellers of the categories most bought with its category) and trending (the
// products whose weighted events rose most in the last 7 days against the 28 before).
//
// Queries and rankings are pure functions of this package; Service does the reads, all
// through the Elasticsearch REST API. Every list leaves out products no longer in the
// catalog and the product it is for, and applies the request's filters (and a browser's
// forced filters) as a search does.
package recommend

import (
	"context"
	"encoding/json"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/hashicorp/golang-lru/v2/expirable"
	"golang.org/x/sync/singleflight"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/searchquery"
)

// Limits of a list request.
const (
	DefaultLimit = 10
	MaxLimit     = 50
)

// CacheTTL is how long the parts of a list computed from many events or orders (the
// trending ranking, the categories bought together) are reused: events reach the
// Events page about a minute after they are sent, and the lists may lag as much.
const CacheTTL = time.Minute

// Reasons say why a product is listed.
const (
	ReasonContent    = "content"    // similar: shared words and facet values, or a near vector
	ReasonOrders     = "orders"     // goes with: bought in the same orders
	ReasonCategories = "categories" // goes with: a best seller of a category bought with the product's
	ReasonTrending   = "trending"   // trending: its weighted events rose
)

// List is the body of GET /lists/{list}/{objectID} and GET /lists/trending.
type List struct {
	// ObjectID is the product the list is for; absent for trending.
	ObjectID string `json:"objectID,omitempty"`
	Hits     []Hit  `json:"hits"`
}

// Hit is one listed product, shaped like a search hit.
type Hit struct {
	ObjectID string          `json:"objectID"`
	Record   json.RawMessage `json:"record"`
	// Score ranks the hits of a reason: relevance for content (the kNN similarity when
	// the product's vector found them), lift for orders, order
	// count for categories, the rise of weighted events for trending.
	Score  float64 `json:"score"`
	Reason string  `json:"reason"`
}

// Request asks for a list of an index.
type Request struct {
	Index    esnames.Index
	Settings searchv1alpha1.IndexSettings
	// Access is what the search may ask: keyed, or public with the policy's filters and fields.
	Access searchquery.Access
	// ObjectID is the product of similar and goes with.
	ObjectID string
	Params
}

// Schemas reads the mapping of the index behind an alias (internal/search.Service).
type Schemas interface {
	Schema(ctx context.Context, alias string) (searchquery.Schema, error)
}

// Service reads the lists.
type Service struct {
	es      *elasticsearch.TypedClient
	schemas Schemas
	now     func() time.Time
	cache   *expirable.LRU[string, []scored]
	group   singleflight.Group
}

// New returns a service on client; now tells the time (nil: time.Now).
func New(client *elasticsearch.TypedClient, schemas Schemas, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{es: client, schemas: schemas, now: now, cache: expirable.NewLRU[string, []scored](4096, nil, CacheTTL)}
}

// scored is a candidate product and its score.
type scored struct {
	id    string
	score float64
}

// productBuckets is a terms aggregation on products in an answer.
type productBuckets struct {
	Buckets []struct {
		Key      string `json:"key"`
		DocCount int64  `json:"doc_count"`
	} `json:"buckets"`
}

// cached returns the value of key, computing it at most once per CacheTTL; concurrent
// misses share one computation.
func (s *Service) cached(key string, compute func() ([]scored, error)) ([]scored, error) {
	if v, ok := s.cache.Get(key); ok {
		return v, nil
	}
	v, err, _ := s.group.Do(key, func() (any, error) {
		v, err := compute()
		if err == nil {
			s.cache.Add(key, v)
		}
		return v, err
	})
	if err != nil {
		return nil, err
	}
	return v.([]scored), nil
}
