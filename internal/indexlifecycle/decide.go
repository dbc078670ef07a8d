package indexlifecycle

import (
	"github.com/elastic/go-elasticsearch/v8/typedapi/types"

	"github.com/aislehq/aisle/internal/esnames"
)

// Next is the generation of a new physical index: above both counter, the last
// generation handed out by whoever counts (the catalog's revision document; 0 for the
// operator, which counts nothing), and highest, the highest generation that exists. So
// an index made by someone not counting can never be made again.
func Next(counter, highest int64) int64 {
	return max(counter, highest) + 1
}

// Highest returns the highest generation among the physical indices of names in
// indices (0 when there is none); other names are left out.
func Highest(names esnames.Index, indices []string) int64 {
	_, gen := Newest(names, indices)
	return gen
}

// Newest returns the physical index of names with the highest generation, and that
// generation ("" and 0 when there is none).
func Newest(names esnames.Index, indices []string) (string, int64) {
	best, bestGen := "", int64(-1)
	for _, name := range indices {
		if gen, err := names.Generation(name); err == nil && gen > bestGen {
			best, bestGen = name, gen
		}
	}
	return best, max(bestGen, 0)
}

// Aliased returns the index of indices (in name order) that alias points at.
func Aliased(indices map[string]types.IndexState, alias string) (string, bool) {
	for _, name := range Names(indices) {
		if _, ok := indices[name].Aliases[alias]; ok {
			return name, true
		}
	}
	return "", false
}

// AliasActions are the actions of one POST /_aliases that points alias at to and takes
// it off from (none when "" or to itself).
func AliasActions(alias, from, to string) []types.IndicesAction {
	actions := make([]types.IndicesAction, 0, 2)
	if from != "" && from != to {
		actions = append(actions, types.IndicesAction{Remove: &types.RemoveAction{Index: &from, Alias: &alias}})
	}
	return append(actions, types.IndicesAction{Add: &types.AddAction{Index: &to, Alias: &alias}})
}
