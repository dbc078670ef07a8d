package searchquery

import (
	"fmt"
	"regexp"
	"slices"
)

// MaxRuleContexts bounds a search's ruleContexts.
const MaxRuleContexts = 10

// RuleContextPattern is what a rule context is: a rule's condition names one as a
// search's ruleContexts do ("mobile", "landing-summer").
var RuleContextPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// checkRuleContexts refuses more than MaxRuleContexts contexts, malformed ones and
// repeated ones.
func checkRuleContexts(contexts []string, p *problems) {
	if len(contexts) > MaxRuleContexts {
		p.add("ruleContexts", "at most %d, got %d", MaxRuleContexts, len(contexts))
		return
	}
	for i, c := range contexts {
		place := fmt.Sprintf("ruleContexts[%d]", i)
		switch {
		case !RuleContextPattern.MatchString(c):
			p.add(place, "must be 1 to 64 characters: letters, digits, _ and -")
		case slices.Index(contexts, c) < i:
			p.add(place, "%q is listed twice", c)
		}
	}
}
