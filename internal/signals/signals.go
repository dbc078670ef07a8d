// Package signals computes what shoppers' events teach search, and keeps it in the
// signals index of each SearchIndex (esnames.Index.Signals), apart from the records:
//
//   - popularity: each product's events and past orders, weighed by type and decayed by
//     age, cut into Levels levels. Level l (1 to Levels-1) is one document, LevelID(l),
//     listing its products' objectIDs under searchquery.PopularityIDsPath; a product without events is at
//     level 0, in no document. Searches rank by it with one terms lookup per level
//     (searchquery), so the levels apply inside Elasticsearch, without scripts, and the
//     records themselves (their version, their seq_no) never change.
//   - re-ranking: per frequent query, the records' attractiveness estimated from clicks
//     corrected for position bias (rerank.go), one document per query (ReRankID).
//
// The operator refreshes both (Refresher); the API server reads them (Reader).
package signals

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/aislehq/aisle/internal/searchquery"
)

// Levels is the number of popularity levels, level 0 (no events) included.
const Levels = searchquery.PopularityLevels

// MaxLevelIDs bounds a level document's objectIDs: Elasticsearch's default
// index.max_terms_count, which a terms lookup obeys.
const MaxLevelIDs = 65536

// Mapping is the signals index's mapping: documents are read by ID, so nothing of them
// is indexed but what the refresh cleans up by.
const Mapping = `{"mappings":{"dynamic":false,"properties":{"kind":{"type":"keyword"},"refreshedAt":{"type":"long"}}}}`

// Document kinds.
const (
	kindLevel  = "popularity"
	kindReRank = "rerank"
)

// LevelID is the ID of the document of popularity level l, which searches look up.
func LevelID(l int) string { return searchquery.PopularityLevelID(l) }

// ReRankID is the ID of the re-ranking document of query (normalised as a click's).
func ReRankID(query string) string {
	sum := sha256.Sum256([]byte(query))
	return "rerank-" + hex.EncodeToString(sum[:16])
}

// levelDoc is the document of one popularity level.
type levelDoc struct {
	Kind        string   `json:"kind"`
	RefreshedAt int64    `json:"refreshedAt"`
	IDs         []string `json:"ids"`
}

// reRankDoc is the document of one query's re-ranking scores.
type reRankDoc struct {
	Kind        string             `json:"kind"`
	RefreshedAt int64              `json:"refreshedAt"`
	Query       string             `json:"query"`
	Searches    int64              `json:"searches"`
	Scores      map[string]float64 `json:"scores"`
}
