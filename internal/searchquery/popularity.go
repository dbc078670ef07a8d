package searchquery

import (
	"strconv"

	"github.com/aislehq/aisle/internal/indexmapping"
	"github.com/aislehq/aisle/internal/relevance"
)

// Popularity (customRanking's _popularity) is no field of the records: the operator
// keeps each product's popularity level in the index's signals index, one document per
// level listing its objectIDs (internal/signals writes them). The custom criterion then has a band
// of the score, wherever it stands in the ranking, whose level for a hit is its
// popularity level: one constant-score terms lookup per level, which Elasticsearch
// resolves by reading the level's document, without scripts. Its first place among
// the custom ranking's fields is what settings require (the band ranks inside the
// score, which comes before the exact values of any other field).

// PopularityLevels is the number of popularity levels, level 0 (no events) included.
const PopularityLevels = 32

// PopularityIDsPath is the field of a level document listing its objectIDs.
const PopularityIDsPath = "ids"

// PopularityLevelID is the ID of the signals document of popularity level l.
func PopularityLevelID(l int) string { return "popularity-" + strconv.Itoa(l) }

// popularityOf reports that the custom criterion ranks by popularity in this search:
// the settings put _popularity first and the search has a signals index to read (the
// search service reads one only when relevance.RanksByPopularity).
func popularityOf(r Access, signalsIndex string) bool {
	return signalsIndex != "" && relevance.PopularityFirst(r.Settings)
}

// popularityClauses are the clauses of the custom band: level l's lookup adds l times
// the band's base (the band's top level for the levels above it, when the score has
// room for fewer levels).
func popularityClauses(r radix, signalsIndex string) []any {
	base := r.base(critCustom)
	if base == 0 {
		return nil
	}
	var size int64
	for _, b := range r.bands {
		if b.criterion == critCustom {
			size = b.size
		}
	}
	out := make([]any, 0, PopularityLevels-1)
	for l := 1; l < PopularityLevels; l++ {
		lookup := map[string]any{"index": signalsIndex, "id": PopularityLevelID(l), "path": PopularityIDsPath}
		out = append(out, constant(map[string]any{"terms": map[string]any{indexmapping.ObjectIDField: lookup}}, min(int64(l), size-1)*base))
	}
	return out
}
