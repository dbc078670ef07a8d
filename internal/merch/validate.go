package merch

import (
	"bytes"
	"fmt"
	"regexp"
	"unicode/utf8"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/indexsettings"
	"github.com/aislehq/aisle/internal/searchquery"
)

// ruleIDPattern is the stageId rule of the contract.
var ruleIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// maxObjectIDBytes is a record objectID's limit (internal/catalog).
const maxObjectIDBytes = 512

// Check validates rules against the index's settings and mapping: every limit of this
// package, and filters that name filterable fields with values their field can hold.
// In a batch (batch true) each problem's place starts with rules[i].
func Check(rules []Rule, batch bool, settings searchv1alpha1.IndexSettings, schema searchquery.Schema) error {
	var p problems
	for i, r := range rules {
		at := ""
		if batch {
			at = fmt.Sprintf("rules[%d].", i)
		}
		checkRule(r, at, settings, schema, &p)
	}
	return p.err()
}

func checkRule(r Rule, at string, settings searchv1alpha1.IndexSettings, schema searchquery.Schema, p *problems) {
	if !ruleIDPattern.MatchString(r.ObjectID) {
		p.add(at+"objectID", "must be 1 to 64 characters: letters, digits, _ and -")
	}
	if r.ObjectID == ReservedID {
		p.add(at+"objectID", "%q is reserved: GET /rules/%s lists the rules' versions", ReservedID, ReservedID)
	}
	if len(r.Description) > MaxDescriptionBytes {
		p.add(at+"description", "must be at most %d bytes", MaxDescriptionBytes)
	}
	checkConditions(r.Conditions, at+"conditions", settings, schema, p)
	checkValidity(r.Validity, at+"validity", p)
	checkConsequence(r.Consequence, at+"consequence", settings, schema, p)
}

func checkConditions(cs []Condition, at string, settings searchv1alpha1.IndexSettings, schema searchquery.Schema, p *problems) {
	if len(cs) > MaxConditions {
		p.add(at, "at most %d", MaxConditions)
	}
	for i, c := range cs {
		place := fmt.Sprintf("%s[%d]", at, i)
		if c.Context != "" && !searchquery.RuleContextPattern.MatchString(c.Context) {
			p.add(place+".context", "must be 1 to 64 characters: letters, digits, _ and - (as a search's ruleContexts)")
		}
		if c.Filters != nil {
			_, probs := searchquery.RuleFilter(c.Filters, place+".filters", settings, schema)
			*p = append(*p, probs...)
		}
		switch {
		case c.Pattern == nil && c.Anchoring != "":
			p.add(place+".anchoring", "needs a pattern (a condition without one matches every query)")
		case c.Pattern == nil:
		case len(*c.Pattern) > MaxPatternBytes:
			p.add(place+".pattern", "must be at most %d bytes", MaxPatternBytes)
		case c.Anchoring == "":
			p.add(place+".anchoring", "is required with a pattern: is, startsWith, endsWith or contains")
		case !anchoring(c.Anchoring):
			p.add(place+".anchoring", "must be is, startsWith, endsWith or contains")
		case *c.Pattern == "" && c.Anchoring != Is:
			p.add(place+".pattern", "an empty pattern takes anchoring is (it matches the empty query)")
		}
	}
}

func anchoring(a string) bool {
	return a == Is || a == StartsWith || a == EndsWith || a == Contains
}

func checkValidity(ws []Window, at string, p *problems) {
	if len(ws) > MaxWindows {
		p.add(at, "at most %d windows", MaxWindows)
	}
	for i, w := range ws {
		if w.From != nil && w.Until != nil && !w.Until.After(*w.From) {
			p.add(fmt.Sprintf("%s[%d].until", at, i), "must be after from")
		}
	}
}

func checkConsequence(c Consequence, at string, settings searchv1alpha1.IndexSettings, schema searchquery.Schema, p *problems) {
	if len(c.Promote)+len(c.Hide)+len(c.Boost)+len(c.Bury) == 0 && c.Filters == nil && c.Query == nil && !hasUserData(c) && c.RenderingContent == nil {
		p.add(at, "needs at least one of promote, hide, boost, bury, filters, query, userData, renderingContent")
	}
	if r := c.RenderingContent; r != nil {
		for _, e := range indexsettings.CheckFacetOrdering(r.FacetOrdering, at+".renderingContent.facetOrdering", settings.FacetFields) {
			p.add(e.Field, "%s", e.Message)
		}
	}
	checkPromote(c.Promote, at+".promote", p)
	checkIDs(c.Hide, at+".hide", MaxHide, p)
	checkWeighted(c.Boost, at+".boost", settings, schema, p)
	checkWeighted(c.Bury, at+".bury", settings, schema, p)
	if c.Filters != nil {
		_, probs := searchquery.RuleFilter(c.Filters, at+".filters", settings, schema)
		*p = append(*p, probs...)
	}
	if c.Query != nil {
		checkQueryEdit(*c.Query, at+".query", p)
	}
	if len(c.UserData) > MaxUserDataBytes {
		p.add(at+".userData", "must be at most %d bytes of JSON", MaxUserDataBytes)
	}
}

// hasUserData reports userData other than null.
func hasUserData(c Consequence) bool {
	return len(c.UserData) > 0 && !bytes.Equal(bytes.TrimSpace(c.UserData), []byte("null"))
}

func checkPromote(ps []Promotion, at string, p *problems) {
	if len(ps) > MaxPromote {
		p.add(at, "at most %d records", MaxPromote)
		return
	}
	ids := make([]string, len(ps))
	for i, pr := range ps {
		ids[i] = pr.ObjectID
		if pr.Position < 1 || pr.Position > MaxPosition {
			p.add(fmt.Sprintf("%s[%d].position", at, i), "must be between 1 and %d", MaxPosition)
		}
	}
	checkIDList(ids, at, func(i int) string { return fmt.Sprintf("%s[%d].objectID", at, i) }, p)
}

func checkIDs(ids []string, at string, max int, p *problems) {
	if len(ids) > max {
		p.add(at, "at most %d records", max)
		return
	}
	checkIDList(ids, at, func(i int) string { return fmt.Sprintf("%s[%d]", at, i) }, p)
}

// checkIDList checks record objectIDs (non-empty, at most 512 bytes, each once).
func checkIDList(ids []string, at string, place func(int) string, p *problems) {
	seen := make(map[string]bool, len(ids))
	for i, id := range ids {
		switch {
		case id == "":
			p.add(place(i), "must be a non-empty objectID")
		case len(id) > maxObjectIDBytes || !utf8.ValidString(id):
			p.add(place(i), "must be at most %d bytes", maxObjectIDBytes)
		case seen[id]:
			p.add(place(i), "%q is listed twice", id)
		}
		seen[id] = true
	}
}

func checkWeighted(ws []Weighted, at string, settings searchv1alpha1.IndexSettings, schema searchquery.Schema, p *problems) {
	if len(ws) > MaxWeighted {
		p.add(at, "at most %d", MaxWeighted)
		return
	}
	for i, w := range ws {
		place := fmt.Sprintf("%s[%d]", at, i)
		if w.Weight != nil && (*w.Weight < 1 || *w.Weight > MaxWeight) {
			p.add(place+".weight", "must be between 1 and %d", MaxWeight)
		}
		if w.Filter == nil {
			p.add(place+".filter", "is required")
			continue
		}
		_, probs := searchquery.RuleFilter(w.Filter, place+".filter", settings, schema)
		*p = append(*p, probs...)
	}
}

func checkQueryEdit(q QueryEdit, at string, p *problems) {
	switch {
	case (q.Replace == nil) == (q.Remove == nil):
		p.add(at, "takes exactly one of replace and remove")
	case q.Replace != nil && len(*q.Replace) > searchquery.MaxQueryLength:
		p.add(at+".replace", "must be at most %d bytes", searchquery.MaxQueryLength)
	case q.Remove != nil && (len(q.Remove) == 0 || len(q.Remove) > MaxRemove):
		p.add(at+".remove", "needs 1 to %d words", MaxRemove)
	}
	for i, w := range q.Remove {
		if w == "" || len(w) > MaxPatternBytes {
			p.add(fmt.Sprintf("%s.remove[%d]", at, i), "must be 1 to %d bytes", MaxPatternBytes)
		}
	}
}
