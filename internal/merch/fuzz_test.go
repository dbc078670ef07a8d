package merch

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/internal/strictjson"
)

// The rule decoders, the checks and the list parameters take any bytes a client sends:
// they never panic, refuse with a reason or accept, and what they accept is stored and
// read back as it was sent.

var fuzzSettings = searchv1alpha1.IndexSettings{FilterableFields: []searchv1alpha1.FieldPath{"brand", "price"}}

var fuzzSchema = searchquery.Schema{
	"brand": {Path: "brand", Kind: searchquery.KindString, Keyword: "brand.keyword"},
	"price": {Path: "price", Kind: searchquery.KindNumber, Keyword: "price"},
}

func refusedAsClientError(err error) bool {
	return errors.Is(err, ErrInvalid) || errors.Is(err, strictjson.ErrInvalid) || errors.Is(err, strictjson.ErrEmpty)
}

// checkStored checks that an accepted rule encodes as a stored document does and
// decodes back, strictly, to itself.
func checkStored(t *testing.T, r Rule) {
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatalf("an accepted rule does not encode: %v", err)
	}
	var back Rule
	if err := strictjson.Decode(raw, &back); err != nil {
		t.Fatalf("an accepted rule does not decode back: %v (%s)", err, raw)
	}
	again, _ := json.Marshal(back)
	if string(again) != string(raw) {
		t.Fatalf("an accepted rule changed on its way back: %s then %s", raw, again)
	}
}

func FuzzDecodeRule(f *testing.F) {
	for _, s := range []string{
		`{"objectID": "r1", "conditions": [{"pattern": "iphone", "anchoring": "contains"}], "consequence": {"promote": [{"objectID": "p1", "position": 1}]}}`,
		`{"consequence": {"boost": [{"filter": {"field": "brand", "eq": "acme"}, "weight": 3}], "bury": [{"filter": {"field": "price", "range": {"gt": 5}}}]}}`,
		`{"validity": [{"from": "2030-01-01T00:00:00Z", "until": "2031-01-01T00:00:00Z"}], "consequence": {"query": {"remove": ["cheap"]}, "userData": {"a": [1]}}}`,
		`{"enabled": false, "consequence": {"filters": {"and": [{"field": "brand", "in": ["a", 1]}]}, "hide": ["x", "y"]}}`,
		`{"consequence": {"query": {"replace": ""}}}`, `{"objectID": "r2"}`, `[]`, `null`, `{"conditions": [{"pattern": ""}]}`,
		`{"conditions": [{"filters": {"field": "brand", "eq": "a"}, "context": "mobile"}, {"context": "x y"}], "consequence": {"hide": ["x"]}}`,
		`{"consequence": {"renderingContent": {"facetOrdering": {"facets": {"order": ["brand"]}, "values": {"brand": {"order": ["a"], "hide": ["a"]}}}}}}`,
	} {
		f.Add([]byte(s), "r1")
	}
	f.Fuzz(func(t *testing.T, body []byte, id string) {
		r, err := DecodeRule(body, id)
		if err == nil {
			err = Check([]Rule{r}, false, fuzzSettings, fuzzSchema)
		}
		if err != nil {
			if !refusedAsClientError(err) {
				t.Fatalf("refused without a client's reason: %v", err)
			}
			return
		}
		if r.ObjectID != id {
			t.Fatalf("accepted objectID %q for path %q", r.ObjectID, id)
		}
		checkStored(t, r)
	})
}

func FuzzDecodeRules(f *testing.F) {
	for _, s := range []string{
		`{"rules": [{"objectID": "a", "consequence": {"hide": ["x"]}}, {"objectID": "b", "consequence": {"userData": 1}}]}`,
		`{"rules": []}`, `{"rules": null}`, `{"rules": [{"objectID": "a"}, {"objectID": "a"}]}`, `{}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		rules, err := DecodeRules(body, 3)
		if err == nil {
			err = Check(rules, true, fuzzSettings, fuzzSchema)
		}
		if err != nil {
			if !refusedAsClientError(err) {
				t.Fatalf("refused without a client's reason: %v", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, r := range rules {
			if seen[r.ObjectID] {
				t.Fatalf("accepted objectID %q twice", r.ObjectID)
			}
			seen[r.ObjectID] = true
			checkStored(t, r)
		}
	})
}

func FuzzParseList(f *testing.F) {
	f.Add("sale", "0", "20")
	f.Add("", "", "")
	f.Add("a\xff", "-1", "1001")
	f.Add("", "9999", "1")
	f.Fuzz(func(t *testing.T, query, offset, limit string) {
		q, err := ParseList(query, offset, limit)
		if err != nil {
			if !errors.Is(err, ErrBadParameter) {
				t.Fatalf("refused without naming a parameter: %v", err)
			}
			return
		}
		if q.Offset < 0 || q.Limit < 1 || q.Limit > MaxListLimit || q.Offset+q.Limit > MaxListWindow || q.Query != query {
			t.Fatalf("accepted %+v from %q %q %q", q, query, offset, limit)
		}
	})
}

func FuzzEditQuery(f *testing.F) {
	f.Add("red cheap shoes", "cheap")
	f.Add("cheap", "cheap cheap")
	f.Add("  a  b  ", "b")
	f.Fuzz(func(t *testing.T, q, remove string) {
		toks := plainTokens(q)
		got := editQuery(q, toks, QueryEdit{Remove: []string{remove}}, [][]string{strings.Fields(remove)})
		if len(got) > len(q) {
			t.Fatalf("removing words from %q gave the longer %q", q, got)
		}
		for _, w := range strings.Fields(got) {
			if !strings.Contains(q, w) {
				t.Fatalf("removing words from %q gave %q, with %q it did not hold", q, got, w)
			}
		}
	})
}

// plainTokens are q's space-separated words with their places.
func plainTokens(q string) []token {
	var out []token
	start := -1
	for i := 0; i <= len(q); i++ {
		if i == len(q) || q[i] == ' ' {
			if start >= 0 {
				out = append(out, token{term: q[start:i], start: start, end: i})
			}
			start = -1
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return out
}

// FuzzHolds: matching any condition against any search's filters and contexts never
// panics, and a condition holding nothing holds for every search.
func FuzzHolds(f *testing.F) {
	f.Add([]byte(`{"filters": {"or": [{"field": "c", "eq": "s"}, {"and": [{"field": "p", "range": {"gt": 1}}]}]}, "context": "m"}`),
		[]byte(`{"filters": {"and": [{"field": "c", "in": ["s"]}, {"not": {"field": "p", "exists": true}}]}, "facetFilters": {"p": [2, "x"]}, "ruleContexts": ["m"]}`))
	f.Fuzz(func(t *testing.T, condition, request []byte) {
		var c Condition
		var req searchquery.Request
		if json.Unmarshal(condition, &c) != nil || json.Unmarshal(request, &req) != nil {
			return
		}
		s := Search{Filters: req.Filters, FacetFilters: req.FacetFilters, Contexts: req.RuleContexts}
		_ = Holds(c, s)
		if !Holds(Condition{}, s) {
			t.Fatalf("a condition holding nothing does not hold for %s", request)
		}
	})
}
