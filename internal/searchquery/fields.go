package searchquery

import (
	"slices"

	"github.com/aislehq/aisle/internal/indexmapping"
)

// maxAttributeRanks bounds the attribute criterion's ranks: fields beyond the eighth
// weight share the last rank.
const maxAttributeRanks = 8

// field is a searchable field as the query matches it.
type field struct {
	path string
	// rank is the field's attribute level: ranks-1 for the heaviest weight, 0 for the
	// lightest (or the ninth weight and beyond).
	rank int
	// typos: the field takes typo and prefix variants (not in disableOnFields).
	typos bool
	// noWords: the index has no words subfield for it yet (built by an earlier release,
	// until its rebuild): the variants of words match the field itself.
	noWords bool
	// weight is the field's weight in searchableFields (at least 1).
	weight int32
}

// words is the field holding the field's words unstemmed.
func (f field) words() string {
	if f.noWords {
		return f.path
	}
	return f.path + "." + indexmapping.WordsSubfield
}

// searchFields are the index's searchable fields with their ranks, and the number of
// ranks. With none configured (every text field searchable, without a words subfield)
// there is no field list: the query matches every field at once.
func searchFields(r Access, s Schema, t typoRules) ([]field, int) {
	sf := r.Settings.SearchableFields
	if len(sf) == 0 {
		return nil, 1
	}
	var weights []int32
	for _, f := range sf {
		if w := max(f.Weight, 1); !slices.Contains(weights, w) {
			weights = append(weights, w)
		}
	}
	slices.Sort(weights)
	slices.Reverse(weights)
	ranks := min(len(weights), maxAttributeRanks)
	out := make([]field, 0, len(sf))
	for _, f := range sf {
		i := slices.Index(weights, max(f.Weight, 1))
		out = append(out, field{path: string(f.Path), rank: ranks - 1 - min(i, ranks-1), typos: !t.fields[string(f.Path)],
			noWords: s.noWords(string(f.Path)), weight: max(f.Weight, 1)})
	}
	return out, ranks
}
