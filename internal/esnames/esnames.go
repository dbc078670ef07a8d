// Package esnames derives the Elasticsearch names of a SearchIndex's data.
//
// Workspace and index names are DNS labels (no dots), so a dot separates the parts
// unambiguously: an index called "products-1" can never collide with the physical
// index "...products.records-1" of an index called "products".
package esnames

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// DefaultPrefix starts every Elasticsearch name Aisle creates, so that one cluster can
// be shared with other applications (or two Aisle installations with other prefixes).
const DefaultPrefix = "aisle"

// Index names the Elasticsearch data of one SearchIndex.
type Index struct {
	Prefix    string
	Workspace string
	Name      string
}

// For returns the names of index name in workspace ws, under the default prefix.
func For(ws, name string) Index {
	return Index{Prefix: DefaultPrefix, Workspace: ws, Name: name}
}

// Stem is the common start of every Elasticsearch index of this SearchIndex.
func (i Index) Stem() string {
	return i.Prefix + "." + i.Workspace + "." + i.Name
}

// Alias is the stable alias that readers and writers of records use.
func (i Index) Alias() string {
	return i.Stem() + ".records"
}

// Physical is the n-th physical records index behind the alias.
func (i Index) Physical(n int64) string {
	return i.Alias() + "-" + strconv.FormatInt(n, 10)
}

// PhysicalPattern matches every physical records index of this SearchIndex.
func (i Index) PhysicalPattern() string {
	return i.Alias() + "-*"
}

// Generation returns n for a physical index name made by Physical.
func (i Index) Generation(physical string) (int64, error) {
	rest, ok := strings.CutPrefix(physical, i.Alias()+"-")
	if !ok {
		return 0, fmt.Errorf("%q is not a physical index of %q", physical, i.Alias())
	}
	return strconv.ParseInt(rest, 10, 64)
}

// Events is the monthly event index holding events of the month of t (UTC).
func (i Index) Events(t time.Time) string {
	return i.Stem() + ".events-" + t.UTC().Format("2006.01")
}

// EventsPattern matches every monthly event index of this SearchIndex.
func (i Index) EventsPattern() string {
	return i.Stem() + ".events-*"
}

// Embeddings is the index of the vectors an index's openAI embedders computed, by the
// hash of their text and settings, see internal/embedding: a record written again with
// the same text takes its vector from there, without a call to the embedder.
func (i Index) Embeddings() string {
	return i.Stem() + ".embeddings"
}

// Searches is the monthly search log index holding the searches answered in the month
// of t (UTC), see internal/searchlog.
func (i Index) Searches(t time.Time) string {
	return i.Stem() + ".searches-" + t.UTC().Format("2006.01")
}

// SearchesPattern matches every monthly search log index of this SearchIndex.
func (i Index) SearchesPattern() string {
	return i.Stem() + ".searches-*"
}

// Control is the index of the catalog's control documents: the revision counter,
// idempotency keys, stage manifests and build leases (see internal/catalog).
func (i Index) Control() string {
	return i.Stem() + ".control"
}

// Orders is the index of orders feeding Bought together.
func (i Index) Orders() string {
	return i.Stem() + ".orders"
}

// Rules is the index of the merchandising rules (internal/merch): not behind the
// alias, so full replacements and rebuilds keep it; deleted with the SearchIndex.
func (i Index) Rules() string {
	return i.Stem() + ".rules"
}

// Signals is the index of what shoppers' events teach search (internal/signals): the
// products' popularity levels and the queries' re-ranking scores. Like the rules, not
// behind the alias, so replacements and rebuilds keep it; deleted with the SearchIndex.
func (i Index) Signals() string {
	return i.Stem() + ".signals"
}

// FromAlias returns the names whose Alias is alias: the prefix is what comes before the
// workspace and the index name, which hold no dots.
func FromAlias(alias string) (Index, bool) {
	stem, ok := strings.CutSuffix(alias, ".records")
	if !ok {
		return Index{}, false
	}
	parts := strings.Split(stem, ".")
	if len(parts) < 3 {
		return Index{}, false
	}
	n := len(parts)
	i := Index{Prefix: strings.Join(parts[:n-2], "."), Workspace: parts[n-2], Name: parts[n-1]}
	if i.Prefix == "" || i.Workspace == "" || i.Name == "" {
		return Index{}, false
	}
	return i, true
}

// AllPattern matches every Elasticsearch index of this SearchIndex.
func (i Index) AllPattern() string {
	return i.Stem() + ".*"
}

// Usage is the index of per-workspace usage counters (monthly searches). The "-" keeps
// it apart from every SearchIndex's names, which continue the prefix with ".".
func Usage(prefix string) string {
	return prefix + "-usage"
}
