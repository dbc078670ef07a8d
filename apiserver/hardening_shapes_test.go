package apiserver_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
)

// The bodies of every endpoint that takes one, as templates whose «slots» hold valid
// values: the bad-input table puts a wrong value in one slot at a time, so that the
// request is refused for that field alone (issue 15: "wrong-typed values in every
// field, empty and over-long identifiers").

// bodyField is one field of a body: its slot, its JSON kind and a valid value.
type bodyField struct {
	slot, kind, valid string
}

// bodyShape is the body of one or more endpoints.
type bodyShape struct {
	template string
	fields   []bodyField
}

// Kinds of fields, which decide the wrong values tried.
const (
	kindString = "string"
	kindID     = "identifier" // a string with length rules: also empty and over-long
	kindInt    = "integer"
	kindBool   = "boolean"
	kindArray  = "array"  // of strings
	kindValues = "values" // an array of scalars
	kindObject = "object"
	kindFree   = "free" // a record's own field: any JSON value but invalid UTF-8
	// kindSelection is facetFilters: an object of arrays of values, per facet field.
	kindSelection = "selection"
	// kindDistinct is a search's distinct: true, false or a number of hits per group.
	kindDistinct = "distinct"
	// kindQueries is a multi-search's queries: an array of 1 to 50 (10 public) objects.
	kindQueries = "queries"
)

// ruleTemplate is a rule using every part, and ruleFields its slots: the body of
// PUT /rules/r1, and inside {"rules": [...]} of POST and PUT /rules.
const ruleTemplate = `{"objectID": «objectID», "description": «description», "enabled": «enabled»,
	"conditions": [{"pattern": «pattern», "anchoring": «anchoring»}], "validity": [{"from": «from», "until": «until»}],
	"consequence": {"promote": [{"objectID": «promoted», "position": «position»}], "hide": «hide»,
		"boost": [{"filter": {"field": «boostField», "eq": «boostValue»}, "weight": «weight»}],
		"filters": {"field": «filterField», "in": «filterIn»}, "query": {"remove": «remove»}, "userData": «userData»}}`

var ruleFields = []bodyField{
	{"objectID", kindID, `"r1"`}, {"description", kindString, `"shoe sale"`}, {"enabled", kindBool, `true`},
	{"pattern", kindString, `"shoe"`}, {"anchoring", kindString, `"contains"`},
	{"from", kindString, `"2030-01-01T00:00:00Z"`}, {"until", kindString, `"2030-02-01T00:00:00Z"`},
	{"promoted", kindID, `"p1"`}, {"position", kindInt, `1`}, {"hide", kindArray, `["p2"]`},
	{"boostField", kindString, `"brand"`}, {"boostValue", kindFree, `"acme"`}, {"weight", kindInt, `2`},
	{"filterField", kindString, `"brand"`}, {"filterIn", kindValues, `["acme"]`}, {"remove", kindArray, `["cheap"]`},
	{"userData", kindFree, `{"banner": "sale.png"}`},
}

var bodyShapes = map[string]bodyShape{
	"rule":  {ruleTemplate, ruleFields},
	"rules": {`{"rules": [` + ruleTemplate + `]}`, ruleFields},
	"records": {`{"records": [{"objectID": «objectID», "name": «name»}]}`, []bodyField{
		{"objectID", kindID, `"r1"`}, {"name", kindFree, `"a record"`},
	}},
	"conditional": {`{"operation": «operation», "objectID": «objectID», "record": «record», "expectedVersion": «expectedVersion», "idempotencyKey": «idempotencyKey»}`, []bodyField{
		{"operation", kindString, `"upsert"`}, {"objectID", kindID, `"r1"`}, {"record", kindObject, `{"objectID": "r1"}`},
		{"expectedVersion", kindInt, `0`}, {"idempotencyKey", kindID, `"key-1"`},
	}},
	"partial": {`{"operations": [{"objectID": «objectID», "set": {"name": «name»}, "unset": «unset», "increment": «increment», "add": «add»,
		"expectedVersion": «expectedVersion», "createIfMissing": «createIfMissing»}], "idempotencyKey": «idempotencyKey»}`, []bodyField{
		{"objectID", kindID, `"r1"`}, {"name", kindFree, `"a record"`}, {"unset", kindArray, `["old"]`},
		{"increment", kindObject, `{"stock": 1}`}, {"add", kindObject, `{"tags": "x"}`}, {"expectedVersion", kindInt, `0`},
		{"createIfMissing", kindBool, `true`}, {"idempotencyKey", kindID, `"key-1"`},
	}},
	"delete": {`{"filters": {"field": «field», "eq": «eq»}}`, []bodyField{
		{"field", kindString, `"brand"`}, {"eq", kindFree, `"acme"`},
	}},
	"browse": {`{"filters": {"field": «field», "eq": «eq»}, "limit": «limit»}`, []bodyField{
		{"field", kindString, `"brand"`}, {"eq", kindFree, `"acme"`}, {"limit", kindInt, `10`},
	}},
	"commit": {`{"expectedBatches": «expectedBatches», "expectedRecords": «expectedRecords»}`, []bodyField{
		{"expectedBatches", kindInt, `0`}, {"expectedRecords", kindInt, `0`},
	}},
	"settings": {`{"searchableFields": [{"path": «path», "weight": «weight»}], "filterableFields": «filterableFields», "facetFields": «facetFields»,
		"sortableFields": «sortableFields», "ranking": «ranking», "customRanking": [{"field": «rankingField», "order": «order»}],
		"synonyms": [{"terms": «terms»}, {"type": «synonymType», "input": «input», "synonyms": «oneWay»},
			{"type": "altCorrection", "word": «word», "corrections": «corrections», "typos": «typos»}],
		"typoTolerance": {"enabled": «typosEnabled», "minWordSizeFor1Typo": «min1», "minWordSizeFor2Typos": «min2», "onNumbers": «onNumbers»,
			"disableOnFields": «disableOnFields», "disableOnWords": «disableOnWords»},
		"stopWords": {"enabled": «stopEnabled», "words": «stopWords», "replace": «replace»},
		"language": «language», "countBrowserOrders": «countBrowserOrders»,
		"recommendations": {"similarWithin": «similarWithin», "minSharedOrders": «minSharedOrders», "eventWeights": {"view": «viewWeight»}},
		"distinct": {"field": «distinctField», "limit": «distinctLimit»},
		"eventRanking": {"enabled": «eventRankingEnabled», "weights": {"purchase": «purchaseWeight»}, "halfLifeDays": «halfLifeDays»},
		"reRanking": {"enabled": «reRankingEnabled», "minSearches": «minSearches», "strength": «strength»},
		"suggestions": {"minDays": «suggestMinDays», "exclude": «suggestExclude»}}`, []bodyField{
		{"path", kindString, `"name"`}, {"weight", kindInt, `2`}, {"filterableFields", kindArray, `["brand"]`},
		{"facetFields", kindArray, `["brand"]`}, {"sortableFields", kindArray, `["price"]`}, {"ranking", kindArray, `["words", "custom"]`},
		{"rankingField", kindString, `"price"`}, {"order", kindString, `"asc"`}, {"terms", kindArray, `["tv", "television"]`},
		{"synonymType", kindString, `"oneWay"`}, {"input", kindString, `"phone"`}, {"oneWay", kindArray, `["mobile"]`},
		{"word", kindString, `"adeedas"`}, {"corrections", kindArray, `["adidas"]`}, {"typos", kindInt, `2`},
		{"typosEnabled", kindBool, `true`}, {"min1", kindInt, `3`}, {"min2", kindInt, `7`}, {"onNumbers", kindBool, `true`},
		{"disableOnFields", kindArray, `["name"]`}, {"disableOnWords", kindArray, `["pro"]`},
		{"stopEnabled", kindBool, `true`}, {"stopWords", kindArray, `["cheap"]`}, {"replace", kindBool, `false`},
		{"language", kindString, `"generic"`}, {"countBrowserOrders", kindBool, `true`},
		{"similarWithin", kindString, `"brand"`}, {"minSharedOrders", kindInt, `3`}, {"viewWeight", kindInt, `1`},
		{"distinctField", kindString, `"brand"`}, {"distinctLimit", kindInt, `2`},
		{"eventRankingEnabled", kindBool, `true`}, {"purchaseWeight", kindInt, `20`}, {"halfLifeDays", kindInt, `7`},
		{"reRankingEnabled", kindBool, `true`}, {"minSearches", kindInt, `5`}, {"strength", kindInt, `30`},
		{"suggestMinDays", kindInt, `2`}, {"suggestExclude", kindArray, `["cheap"]`},
	}},
	"policy": {`{"policy": {"maxHits": «maxHits», "retrievableFields": «retrievableFields», "forcedFilters": [{"field": «field», "values": «values»}],
		"allowedFacets": «allowedFacets», "allowedFilters": «allowedFilters», "allowedSorts": «allowedSorts»}}`, []bodyField{
		{"maxHits", kindInt, `10`}, {"retrievableFields", kindArray, `["name"]`}, {"field", kindString, `"brand"`},
		{"values", kindArray, `["acme"]`}, {"allowedFacets", kindArray, `["brand"]`}, {"allowedFilters", kindArray, `["brand"]`},
		{"allowedSorts", kindArray, `["price"]`},
	}},
	"search": {`{"q": «q», "limit": «limit», "offset": «offset», "filters": {"field": «filterField», "in": «in»}, "facets": «facets»,
		"maxValuesPerFacet": «maxValuesPerFacet», "sort": [{"field": «sortField», "order": «sortOrder»}], "fields": «fields»,
		"typoTolerance": «typoTolerance», "highlight": «highlight», "matchingStrategy": «matchingStrategy», "explain": «explain»,
		"snippets": [{"field": «snippetField», "words": «snippetWords»}], "facetFilters": «facetFilters», "distinct": «distinct»,
		"variantsLimit": «variantsLimit», "enableRules": «enableRules»}`, []bodyField{
		{"q", kindString, `"shoe"`}, {"limit", kindInt, `5`}, {"offset", kindInt, `0`}, {"filterField", kindString, `"brand"`},
		{"in", kindValues, `["acme"]`}, {"facets", kindArray, `["brand"]`}, {"maxValuesPerFacet", kindInt, `5`},
		{"sortField", kindString, `"price"`}, {"sortOrder", kindString, `"asc"`}, {"fields", kindArray, `["name"]`},
		{"typoTolerance", kindBool, `true`}, {"highlight", kindBool, `true`}, {"matchingStrategy", kindString, `"last"`},
		{"explain", kindBool, `false`}, {"snippetField", kindString, `"name"`}, {"snippetWords", kindInt, `5`},
		{"facetFilters", kindSelection, `{"brand": ["acme"]}`}, {"distinct", kindDistinct, `false`}, {"variantsLimit", kindInt, `0`},
		{"enableRules", kindBool, `true`},
	}},
	"facetSearch": {`{"facetQuery": «facetQuery», "q": «q», "filters": {"field": «filterField», "in": «in»}, "facetFilters": «facetFilters»,
		"maxValues": «maxValues»}`, []bodyField{
		{"facetQuery", kindString, `"ac"`}, {"q", kindString, `"shoe"`}, {"filterField", kindString, `"brand"`},
		{"in", kindValues, `["acme"]`}, {"facetFilters", kindSelection, `{"brand": ["acme"]}`}, {"maxValues", kindInt, `5`},
	}},
	"multiSearch": {`{"queries": [{"index": «index», "q": «q», "limit": «limit», "facets": «facets», "facetFilters": «facetFilters»,
		"distinct": «distinct»}]}`, []bodyField{
		{"index", kindID, `"{index}"`}, {"q", kindString, `"shoe"`}, {"limit", kindInt, `5`}, {"facets", kindArray, `["brand"]`},
		{"facetFilters", kindSelection, `{"brand": ["acme"]}`}, {"distinct", kindDistinct, `false`},
	}},
	"publicMultiSearch": {`{"queries": [{"publicId": «publicId», "q": «q», "limit": «limit», "facets": «facets», "facetFilters": «facetFilters»,
		"distinct": «distinct»}]}`, []bodyField{
		{"publicId", kindID, `"{publicId}"`}, {"q", kindString, `"shoe"`}, {"limit", kindInt, `5`}, {"facets", kindArray, `["brand"]`},
		{"facetFilters", kindSelection, `{"brand": ["acme"]}`}, {"distinct", kindDistinct, `false`},
	}},
	"multiSearchQueries":       {`{"queries": «queries»}`, []bodyField{{"queries", kindQueries, `[{"index": "{index}"}]`}}},
	"publicMultiSearchQueries": {`{"queries": «queries»}`, []bodyField{{"queries", kindQueries, `[{"publicId": "{publicId}"}]`}}},
	"events": {`{"events": «events»}`, []bodyField{
		{"events", kindArray, `[{"type": "view", "objectID": "p1"}]`},
	}},
	"orders": {`{"orders": «orders»}`, []bodyField{
		{"orders", kindArray, `[{"orderID": "o1", "timestamp": 1, "items": [{"objectID": "p1"}]}]`},
	}},
}

// wrongValues are raw JSON values of another kind than kind, and for identifiers the
// empty and over-long ones; every string kind also gets invalid UTF-8.
func wrongValues(kind string) map[string]string {
	invalidUTF8 := "\"a\xffb\""
	byKind := map[string]map[string]string{
		kindString: {"a number": `1`, "a boolean": `true`, "an object": `{}`, "an array": `["a"]`, "invalid UTF-8": invalidUTF8},
		kindID: {"a number": `1`, "a boolean": `true`, "an object": `{}`, "an array": `["a"]`, "invalid UTF-8": invalidUTF8,
			"empty": `""`, "over-long": `"` + strings.Repeat("x", 513) + `"`},
		kindInt: {"a string": `"1"`, "a fraction": `1.5`, "an overflowing integer": `92233720368547758070`,
			"an overflowing number": `1e400`, "a negative overflow": `-92233720368547758070`, "a boolean": `true`},
		kindBool:   {"a string": `"yes"`, "a number": `1`},
		kindArray:  {"a string": `"x"`, "an object": `{}`, "a number": `1`, "an array of numbers": `[1]`, "invalid UTF-8": "[\"\xff\"]"},
		kindValues: {"a string": `"x"`, "an object": `{}`, "a number": `1`, "an array of objects": `[{}]`, "invalid UTF-8": "[\"\xff\"]"},
		kindObject: {"a string": `"x"`, "an array": `[]`, "a number": `1`, "invalid UTF-8": "{\"objectID\": \"r\xff\"}"},
		kindFree:   {"invalid UTF-8": invalidUTF8},
		kindSelection: {"a string": `"x"`, "an array": `["acme"]`, "a number": `1`, "values that are no array": `{"brand": "acme"}`,
			"no value": `{"brand": []}`, "an object as a value": `{"brand": [{}]}`, "a field that is no facet": `{"objectID": ["x"]}`,
			"invalid UTF-8": "{\"brand\": [\"\xff\"]}"},
		kindDistinct: {"a string": `"2"`, "an object": `{}`, "a fraction": `1.5`, "a negative number": `-1`, "too many hits a group": `11`,
			"an overflowing number": `1e400`, "a number without a distinct setting": `2`},
		kindQueries: {"a string": `"x"`, "an object": `{}`, "none": `[]`, "a number": `[1]`, "an empty query": `[{}]`,
			"too many":      "[" + strings.TrimSuffix(strings.Repeat(`{},`, 51), ",") + "]",
			"invalid UTF-8": "[{\"index\": \"\xff\"}]"},
	}
	return byKind[kind]
}

// render fills the template of shape, with raw in slot.
func (s bodyShape) render(slot, raw string) string {
	out := s.template
	for _, f := range s.fields {
		v := f.valid
		if f.slot == slot {
			v = raw
		}
		out = strings.ReplaceAll(out, "«"+f.slot+"»", v)
	}
	return out
}

// fieldEntries are the table's entries: each field of each shape with each wrong value.
func fieldEntries() []TableEntry {
	// Sorted: every parallel process must build the same tree.
	var out []TableEntry
	for _, name := range slices.Sorted(maps.Keys(bodyShapes)) {
		shape := bodyShapes[name]
		for _, f := range shape.fields {
			wrong := wrongValues(f.kind)
			for _, what := range slices.Sorted(maps.Keys(wrong)) {
				desc := fmt.Sprintf("%s body: %s as %s", name, f.slot, what)
				out = append(out, Entry(desc, name, shape.render(f.slot, wrong[what])))
			}
		}
	}
	return out
}

// wholeBodyEntries are bodies every endpoint must refuse, whatever it takes.
func wholeBodyEntries() []TableEntry {
	bodies := map[string]string{
		"a null body": `null`, "an empty body": ` `, "an array": `[]`, "a string": `"x"`, "a number": `1`,
		"trailing data": `{} {}`, "a repeated member": `{"q": "a", "q": "b"}`, "a member in another case": `{"Q": "a"}`,
		"invalid UTF-8 in a member name": "{\"\xff\": 1}", "an unfinished body": `{"records": [`,
		"an overflowing integer":     `{"expectedVersion": 1e400, "limit": 92233720368547758070, "offset": 1e400}`,
		"an over-long identifier":    `{"operation": "delete", "objectID": "` + strings.Repeat("x", 600) + `", "expectedVersion": 0}`,
		"an empty idempotency key":   `{"operation": "delete", "objectID": "a", "expectedVersion": 0, "idempotencyKey": ""}`,
		"a deeply nested value":      `{"q": ` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`,
		"wrong types in many fields": `{"records": "x", "operation": 1, "q": 1, "policy": [], "synonyms": "s", "events": {}, "orders": 1}`,
	}
	var out []TableEntry
	for _, name := range slices.Sorted(maps.Keys(bodies)) {
		out = append(out, Entry(name, "", bodies[name]))
	}
	return out
}
