package searchquery

// A query word matches through variants, each a constant_score whose boost carries its
// levels; a dis_max keeps the best one a record matches:
//   - exact: the language-analysed field (stems and plurals count as exact), typo 0;
//   - one typo: the words subfield within one edit, the first letter kept;
//   - two typos: within two edits, the first letter kept, or one edit on the first letter;
//   - prefix (the last word, still being typed): a word of the words subfield starting
//     with it, no typo, not exact;
//   - synonyms: their alternatives on the language-analysed field, exact (altCorrection:
//     at its typos, not exact).
// Fields of one attribute rank share a clause (multi_match), so the attribute level is
// the rank of the best field the variant matched in.

// rankGroup is the fields of one attribute rank.
type rankGroup struct {
	rank  int
	paths []string
}

// Which fields, and which of their analyses, a group of variants matches.
const (
	// exactFields: the language-analysed fields.
	exactFields = iota
	// wordsFields: every field's words subfield.
	wordsFields
	// typoFields: the words subfields of the fields that take typos and prefixes.
	typoFields
)

// groups splits the fields by rank, heaviest first, naming them as kind says. Without a
// field list, one group of every field.
func (p textPlan) groups(kind int) []rankGroup {
	if p.fields == nil {
		return []rankGroup{{rank: 0}}
	}
	var out []rankGroup
	for rank := p.ranks - 1; rank >= 0; rank-- {
		g := rankGroup{rank: rank}
		for _, f := range p.fields {
			switch {
			case f.rank != rank:
			case kind == exactFields:
				g.paths = append(g.paths, f.path)
			case kind == wordsFields || f.typos:
				g.paths = append(g.paths, f.words())
			}
		}
		if len(g.paths) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// wordVariants are the variants of one word.
func (p textPlan) wordVariants(w qword, wordsLevel int) []variant {
	var out []variant
	exact := p.groups(exactFields)
	if w.analyzerStop {
		exact = p.groups(wordsFields)
	}
	for _, g := range exact {
		out = append(out, constant(textMatch(g.paths, w.text, allWords), p.radix.boost(levels{wordsLevel, 2, g.rank, 1})))
	}
	typos := p.typos.allowed(w)
	for _, g := range p.groups(typoFields) {
		if typos >= 1 {
			out = append(out, constant(textMatch(g.paths, w.text, fuzzy(1, 1)), p.radix.boost(levels{wordsLevel, 1, g.rank, 0})))
		}
		if typos >= 2 {
			two := p.radix.boost(levels{wordsLevel, 0, g.rank, 0})
			out = append(out, constant(textMatch(g.paths, w.text, fuzzy(2, 1)), two), constant(textMatch(g.paths, w.text, fuzzy(1, 0)), two))
		}
		switch {
		case w.prefix:
			out = append(out, constant(textMatch(g.paths, w.text, prefixOf), p.radix.boost(levels{wordsLevel, 2, g.rank, 0})))
		case p.strategy == StrategyFrequency && typos >= 1:
			// A word the shopper finished may still be the start of the word a record
			// holds (stain, stainless): ranked as one typo, below whole words.
			out = append(out, constant(textMatch(g.paths, w.text, prefixOf), p.radix.boost(levels{wordsLevel, 1, g.rank, 0})))
		}
	}
	return out
}

// altVariants match a unit of size words by one alternative: a word, or a phrase.
func (p textPlan) altVariants(a alt, size, wordsLevel int) []variant {
	opts := allWords
	if a.words > 1 {
		opts = phrase
	}
	exact := size
	if a.typos > 0 {
		exact = 0
	}
	var out []variant
	for _, g := range p.groups(exactFields) {
		l := levels{words: wordsLevel, typo: 2*size - a.typos, attribute: g.rank * size, exact: exact}
		out = append(out, constant(textMatch(g.paths, a.text, opts), p.radix.boost(l)))
	}
	return out
}
