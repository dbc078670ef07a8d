package merch

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/aislehq/aisle/internal/strictjson"
)

// Errors of the rules endpoints, mapped to statuses by the API server's one table.
var (
	// ErrInvalid: a rule breaks a rule of this package; the message names each place.
	ErrInvalid = errors.New("invalid rule")
	// ErrNotFound: no rule has the ID.
	ErrNotFound = errors.New("rule not found")
	// ErrTooMany: the write would take the index beyond MaxRules.
	ErrTooMany = errors.New("too many rules")
	// ErrBadParameter: a query parameter of GET /rules is not valid.
	ErrBadParameter = errors.New("invalid parameter")
)

// problems collects every broken rule, so that one 400 names them all.
type problems []string

func (p *problems) add(place, format string, args ...any) {
	*p = append(*p, place+": "+fmt.Sprintf(format, args...))
}

func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrInvalid, strings.Join(p, "; "))
}

// DecodeRule reads the body of PUT /rules/{ruleId}: one rule, whose objectID is the
// path's (it may be left out of the body). Only its shape is checked here; Check does
// the rest.
func DecodeRule(body []byte, id string) (Rule, error) {
	var r Rule
	if err := strictjson.Decode(body, &r); err != nil {
		return Rule{}, err
	}
	var given struct {
		ObjectID *string `json:"objectID"`
	}
	if err := json.Unmarshal(body, &given); err == nil && given.ObjectID == nil {
		r.ObjectID = id
	}
	if r.ObjectID != id {
		return Rule{}, fmt.Errorf("%w: objectID: %q differs from the path's %q", ErrInvalid, r.ObjectID, id)
	}
	return r, nil
}

// batch is the body of POST and PUT /rules.
type batch struct {
	Rules *[]Rule `json:"rules"`
}

// DecodeRules reads {"rules": [...]} with at most max rules, each with its own
// objectID, no two the same.
func DecodeRules(body []byte, max int) ([]Rule, error) {
	var b batch
	if err := strictjson.Decode(body, &b); err != nil {
		return nil, err
	}
	if b.Rules == nil {
		return nil, fmt.Errorf(`%w: rules is required: send {"rules": [...]}`, ErrInvalid)
	}
	rules := *b.Rules
	if len(rules) > max {
		return nil, fmt.Errorf("%w: rules: at most %d in one request, got %d", ErrInvalid, max, len(rules))
	}
	seen := make(map[string]int, len(rules))
	var p problems
	for i, r := range rules {
		if j, dup := seen[r.ObjectID]; dup && r.ObjectID != "" {
			p.add(fmt.Sprintf("rules[%d].objectID", i), "%q is also rules[%d]'s", r.ObjectID, j)
		}
		seen[r.ObjectID] = i
	}
	return rules, p.err()
}
