package merch

import (
	"context"
	"fmt"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// readTerms reads the patterns and removed words of rules in lang, in as few _analyze
// requests as their size allows.
func (s *Service) readTerms(ctx context.Context, lang searchv1alpha1.Language, rules []Rule) ([]terms, error) {
	var texts []string
	for _, r := range rules {
		texts = append(texts, textsOf(r)...)
	}
	read, err := s.analyzer.terms(ctx, lang, texts)
	if err != nil {
		return nil, err
	}
	out := make([]terms, len(rules))
	for i, r := range rules {
		out[i], read = termsFrom(r, lang, read)
	}
	return out, nil
}

// textsOf are the texts of r to analyse, in the order termsFrom takes their terms: the
// non-empty patterns, then the removed words.
func textsOf(r Rule) []string {
	var out []string
	for _, c := range r.Conditions {
		if c.Pattern != nil && *c.Pattern != "" {
			out = append(out, *c.Pattern)
		}
	}
	if q := r.Consequence.Query; q != nil {
		out = append(out, q.Remove...)
	}
	return out
}

// termsFrom takes r's terms from the front of read.
func termsFrom(r Rule, lang searchv1alpha1.Language, read [][]string) (terms, [][]string) {
	t := terms{Language: lang, Patterns: make([][]string, len(r.Conditions))}
	for i, c := range r.Conditions {
		switch {
		case c.Pattern == nil:
		case *c.Pattern == "":
			t.Patterns[i] = []string{}
		default:
			t.Patterns[i], read = orEmpty(read[0]), read[1:]
		}
	}
	if q := r.Consequence.Query; q != nil {
		for range q.Remove {
			t.Remove, read = append(t.Remove, orEmpty(read[0])), read[1:]
		}
	}
	return t, read
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// checkTerms refuses a pattern or a removed word in which the language's analysis keeps
// no word (only stop words or punctuation): it could never match a query.
func checkTerms(r Rule, t terms, at string, p *problems) {
	for i, c := range r.Conditions {
		if c.Pattern != nil && *c.Pattern != "" && len(t.Patterns[i]) == 0 {
			p.add(fmt.Sprintf("%sconditions[%d].pattern", at, i), "%q holds no word the index's language keeps (only stop words or punctuation)", *c.Pattern)
		}
	}
	for i, words := range t.Remove {
		if len(words) == 0 {
			p.add(fmt.Sprintf("%sconsequence.query.remove[%d]", at, i), "%q holds no word the index's language keeps (only stop words or punctuation)", r.Consequence.Query.Remove[i])
		}
	}
}
