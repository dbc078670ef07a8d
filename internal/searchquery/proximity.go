package searchquery

// Proximity: per pair of adjacent query words (not within one synonym unit), a phrase of
// the two (with any stop words typed between them kept as gaps) matched in one field
// with a growing slop: 3 side by side in order (slop 0), 2 within two moves (a word
// between, or the two swapped: slop 2), 1 within eight, else 0. The level sums the
// pairs'; a pair's is the best over the fields (dis_max).

// proximityTiers are the slops of a pair's phrases, closest first: the tier matched with
// the i-th scores len(proximityTiers) - i.
var proximityTiers = []int{0, 2, 8}

// pairs are the indices i of the kept words whose pair (i, i+1) counts.
func (p textPlan) pairs() []int {
	var out []int
	kept := p.words.kept
	for i := 0; i+1 < len(kept); i++ {
		if kept[i].analyzerStop || kept[i+1].analyzerStop || p.sameUnit(i, i+1) {
			continue
		}
		out = append(out, i)
	}
	return out
}

func (p textPlan) sameUnit(i, j int) bool {
	for _, u := range p.units {
		if u.first <= i && j <= u.last {
			return true
		}
	}
	return false
}

// proximitySize is the number of proximity levels of a query with pairs pairs.
func proximitySize(pairs int) int64 { return int64(len(proximityTiers)*pairs + 1) }

// proximity is a clause per pair, none when the ranking leaves proximity out.
func (p textPlan) proximity() []any {
	base := p.radix.base(critProximity)
	if base == 0 {
		return nil
	}
	var paths []string
	for _, f := range p.fields {
		paths = append(paths, f.path)
	}
	var out []any
	for _, i := range p.pairs() {
		tiers := make([]any, len(proximityTiers))
		for t, slop := range proximityTiers {
			opts := map[string]any{"type": "phrase"}
			if slop > 0 {
				opts["slop"] = slop
			}
			tiers[t] = constant(textMatch(paths, p.words.phrase(i), opts), int64(len(proximityTiers)-t)*base)
		}
		out = append(out, disMax(tiers))
	}
	return out
}
