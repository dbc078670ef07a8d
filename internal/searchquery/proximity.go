package searchquery

// Proximity: per pair of adjacent query words (not within one synonym unit), 2 when a
// field holds them side by side in order (a phrase, with any stop words between as
// typed), 1 when one field holds both, else 0. Elasticsearch could tell more distances
// apart with a phrase slop; the embedded engine has no slop, and the ranking must be the
// same on both.

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
		two := p.words.kept[i].text + " " + p.words.kept[i+1].text
		out = append(out, disMax([]any{
			constant(textMatch(paths, p.words.phrase(i), phrase), 2*base),
			constant(textMatch(paths, two, allWords), base),
		}))
	}
	return out
}
